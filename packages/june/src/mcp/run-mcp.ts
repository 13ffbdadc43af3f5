import { ConnectionCache } from "./connection-cache.js";
import { CONNECTION_CACHE } from "./connections-brand.js";
import type { McpConnections } from "./connections.js";
import type { McpToolsOptions } from "./mcp-tools.js";

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

  /** `provided`: the connections given to the run, else those in effect, innermost first. */
  constructor(provided: readonly McpConnections[]) {
    const chain = [...provided];
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
  const cache = (connections as { [CONNECTION_CACHE]?: ConnectionCache })[CONNECTION_CACHE];
  if (!cache) throw new TypeError("june: `mcp` must be made by mcpConnections()");
  return cache;
}
