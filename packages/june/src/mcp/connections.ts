import { AsyncLocalStorage } from "node:async_hooks";
import { openConnection, type McpConnection, type ServerTarget } from "./connect.js";
import { checkMcpToolsOptions } from "./check-options.js";
import { McpConnectionError } from "./errors.js";
import { CONNECTION_CACHE as CACHE, isMcpConnections } from "./connections-brand.js";
import type { McpToolsOptions } from "./mcp-tools.js";

/**
 * Open MCP connections, by server: each server is connected once, on first use, and reused until `closeAll()`.
 * A connection that fails is forgotten (the next use tries again), and so is one whose server exited.
 */
export class ConnectionCache {
  readonly #open = new Map<unknown, Promise<McpConnection>>();
  // Made on first use: every run has a cache, most never connect anything.
  #abort: AbortController | undefined;
  #closed = false;

  /** The connection to `target`, opened now if there is none. */
  get(target: ServerTarget, name: string): Promise<McpConnection> {
    if (this.#closed) {
      return Promise.reject(new McpConnectionError(`MCP server "${name}" could not be connected: its connections were closed`, { server: name }));
    }
    const key = target.kind === "client" ? target.client : target.key;
    const existing = this.#open.get(key);
    if (existing) return existing.then((c) => (c.closed ? this.#reopen(key, target, name, existing) : c));
    return this.#connect(key, target, name);
  }

  #reopen(key: unknown, target: ServerTarget, name: string, stale: Promise<McpConnection>): Promise<McpConnection> {
    if (this.#open.get(key) === stale) this.#open.delete(key);
    return this.get(target, name);
  }

  #connect(key: unknown, target: ServerTarget, name: string): Promise<McpConnection> {
    this.#abort ??= new AbortController();
    const pending = openConnection(target, name, this.#abort.signal);
    this.#open.set(key, pending);
    pending.catch(() => {
      if (this.#open.get(key) === pending) this.#open.delete(key);
    });
    return pending;
  }

  /** The process ids of the stdio servers open now (for tests and diagnostics). */
  async pids(): Promise<number[]> {
    const settled = await Promise.allSettled(this.#open.values());
    return settled.flatMap((s) => (s.status === "fulfilled" && s.value.pid !== undefined ? [s.value.pid] : []));
  }

  /**
   * Stops connecting, then closes every connection June opened (a stdio server's process ends; the MCP SDK
   * ends it with SIGTERM, then SIGKILL, if it does not exit when its stdin closes). Never rejects.
   */
  async closeAll(): Promise<void> {
    this.#closed = true;
    if (this.#open.size === 0) return;
    // Internal: a connection still opening rejects with this reason, which openConnection wraps in McpConnectionError.
    this.#abort?.abort(new Error("june: MCP connections closed"));
    const pending = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(
      pending.map(async (p) => {
        const connection = await p.catch(() => undefined);
        if (connection?.owned) await connection.client.close().catch(() => {});
      }),
    );
  }
}

/** Options of `mcpConnections()`. */
export interface McpConnectionsOptions {
  /**
   * Servers whose tools every model step run with these connections gets, as if an `<McpTools>` with these
   * options sat at the top of the workflow (what `june chat --mcp` uses). Default: none.
   */
  tools?: readonly McpToolsOptions[];
}

/**
 * MCP clients kept open across runs, so an expensive server starts once, not once per run or per chat turn.
 * Give them to `start(workflow, { mcp })` or `createChat({ ..., mcp })`, or run code under them with `run(fn)`;
 * close them with `close()` when done (runs never close them).
 */
export interface McpConnections {
  /** The servers whose tools every model step under these connections gets. */
  readonly tools: readonly McpToolsOptions[];
  /**
   * Calls `fn` with these connections in effect: every `start()` inside it (directly, or through a chat's
   * responder) that is not given `mcp` of its own uses them, and gets their `tools`. Nested, the inner
   * connections serve the workflow's `<McpTools>`, and both sets of `tools` apply.
   */
  run<T>(fn: () => T): T;
  /** The process ids of the stdio servers open now. */
  pids(): Promise<number[]>;
  /** Closes every client these connections opened (stdio servers' processes end). Later use is an error. */
  close(): Promise<void>;
}

interface InEffect {
  readonly connections: McpConnections;
  readonly outer: InEffect | undefined;
}

const inEffect = new AsyncLocalStorage<InEffect>();

/**
 * MCP connections that outlive a run: one client per server, opened on first use and kept until `close()`.
 *
 * @example
 * const mcp = mcpConnections();
 * const chat = createChat({ responder, mcp });  // every turn reuses the servers its workflow's <McpTools> name
 * // ...
 * await mcp.close();
 */
export function mcpConnections(options: McpConnectionsOptions = {}): McpConnections {
  if (typeof options !== "object" || options === null) throw new TypeError("mcpConnections(options): options must be an object");
  const tools = options.tools ?? [];
  if (!Array.isArray(tools)) throw new TypeError("mcpConnections({ tools }): tools must be an array of <McpTools> options");
  tools.forEach((entry, index) => {
    const problem = checkMcpToolsOptions(entry);
    if (problem) throw new TypeError(`mcpConnections({ tools }): tools[${index}]: ${problem}`);
  });
  const cache = new ConnectionCache();
  const connections: McpConnections & { readonly [CACHE]: ConnectionCache } = {
    [CACHE]: cache,
    tools: Object.freeze([...tools]),
    run: (fn) => inEffect.run({ connections, outer: inEffect.getStore() }, fn),
    pids: () => cache.pids(),
    close: () => cache.closeAll(),
  };
  return Object.freeze(connections);
}

/** A server whose tools every model step of a run gets, with the cache that connects it. */
export interface AmbientTools {
  readonly options: McpToolsOptions;
  readonly cache: ConnectionCache;
}

/**
 * One run's MCP: where its `<McpTools>` connect (the connections given or in effect, else a cache of its own,
 * closed when the run ends) and the servers whose tools every step gets.
 */
export class RunMcp {
  readonly cache: ConnectionCache;
  readonly ambient: readonly AmbientTools[];
  readonly #owned: boolean;

  constructor(given: McpConnections | undefined) {
    const chain: McpConnections[] = [];
    if (given) chain.push(given);
    else for (let e = inEffect.getStore(); e; e = e.outer) chain.push(e.connections);
    const first = chain[0];
    this.#owned = first === undefined;
    this.cache = first ? cacheOf(first) : new ConnectionCache();
    this.ambient = chain.reverse().flatMap((c) => c.tools.map((options) => ({ options, cache: cacheOf(c) })));
  }

  /** True when the run has MCP servers of its own to close. */
  get owned(): boolean {
    return this.#owned;
  }

  /** Closes the run's own connections (not shared ones). Never rejects. */
  close(): Promise<void> {
    return this.#owned ? this.cache.closeAll() : Promise.resolve();
  }
}

function cacheOf(connections: McpConnections): ConnectionCache {
  const cache = (connections as { [CACHE]?: ConnectionCache })[CACHE];
  if (!cache) throw new TypeError("june: `mcp` must be made by mcpConnections()");
  return cache;
}

export { isMcpConnections };
