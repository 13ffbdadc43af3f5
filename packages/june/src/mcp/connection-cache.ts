import { openConnection, type McpConnection, type ServerTarget } from "./connect.js";
import { McpConnectionError } from "./errors.js";

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
