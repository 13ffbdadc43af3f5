import { AsyncLocalStorage } from "node:async_hooks";
import { sourceOf, type ToolSource } from "./tool-source.js";

interface InEffect {
  readonly provider: object;
  readonly outer: InEffect | undefined;
}

const inEffect = new AsyncLocalStorage<InEffect>();

/**
 * Calls `fn` with `provider` (a value marked with a tool source, `mcpConnections()`) in effect: every run started
 * inside it that is not given one of its own serves the source with it (and with those in effect outside it).
 */
export function withToolSources<T>(provider: object, fn: () => T): T {
  return inEffect.run({ provider, outer: inEffect.getStore() }, fn);
}

/**
 * One run's tool-source sessions: what serves each source for the run (the value given to `start()`, else those
 * in effect, read when the run starts), and each source's session, opened on first use and closed as the run ends.
 */
export class RunSources {
  readonly #runId: string;
  readonly #provided: readonly object[];
  readonly #sessions = new Map<ToolSource<any, any, any>, unknown>();
  #closed = false;

  /** Made inside `start()`, so it sees the values in effect (`withToolSources`). */
  constructor(runId: string, given: object | undefined) {
    this.#runId = runId;
    const chain: object[] = [];
    if (given) chain.push(given);
    else for (let e = inEffect.getStore(); e; e = e.outer) chain.push(e.provider);
    this.#provided = chain;
  }

  /** The sources something serves for the whole run: every step consults them, named in its scope or not. */
  get provided(): ToolSource<any, any, any>[] {
    return [...new Set(this.#provided.map((value) => sourceOf(value)!))];
  }

  /** The run's session of `source`, opened now if it has none. */
  session(source: ToolSource<any, any, any>): unknown {
    if (!source.open) return undefined;
    if (!this.#sessions.has(source)) {
      const provided = this.#provided.filter((value) => sourceOf(value) === source);
      const session = source.open({ runId: this.#runId, provided });
      this.#sessions.set(source, session);
      // Opened after the run ended (nothing should): closed at once, so the source refuses it as a closed one.
      if (this.#closed) void (async () => source.close?.(session))().catch(() => {});
    }
    return this.#sessions.get(source);
  }

  /** Closes every session opened, each source's `close`. Never rejects. */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#sessions];
    this.#sessions.clear();
    await Promise.all(open.map(async ([source, session]) => {
      try {
        await source.close?.(session);
      } catch {
        // A source's close failing must not fail the run that used it.
      }
    }));
  }
}
