import { checkMcpToolsOptions } from "./check-options.js";
import { ConnectionCache } from "./connection-cache.js";
import { CONNECTION_CACHE as CACHE, isMcpConnections } from "./connections-brand.js";
import { McpTools, type McpToolsOptions } from "./mcp-tools.js";
import { withToolSources } from "../runtime/run-sources.js";
import { sourceOf, TOOL_SOURCE, type ToolSourceProvider } from "../runtime/tool-source.js";

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
export interface McpConnections extends ToolSourceProvider {
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
    // What serves `<McpTools>` for the runs these connections are given to or in effect around.
    [TOOL_SOURCE]: sourceOf(McpTools)!,
    tools: Object.freeze([...tools]),
    run: (fn) => withToolSources(connections, fn),
    pids: () => cache.pids(),
    close: () => cache.closeAll(),
  };
  return Object.freeze(connections);
}

export { isMcpConnections };
