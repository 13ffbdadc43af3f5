/* Apart from tool-source.ts so the run's option types (types.ts) can name a provider without a circle. */

/**
 * The mark of a tool source: on the element type `toolSource()` makes (`McpTools`, `AskUser`), and on a value that
 * serves one for whole runs (`mcpConnections()`), each time holding the source's definition.
 */
export const TOOL_SOURCE: unique symbol = Symbol.for("june.toolSource");

/**
 * A value that serves a tool source for whole runs, given to `start({ mcp })` or put in effect around runs
 * (`mcpConnections()`, whose `run(fn)` does): its source's `open` gets it in `provided`, and every step of those
 * runs consults the source, named in its scope or not.
 */
export interface ToolSourceProvider {
  /** The source's definition (a `ToolSource`). */
  readonly [TOOL_SOURCE]: object;
}
