import type { McpConnections } from "./connections.js";

/**
 * The mark of an `McpConnections` (made by `mcpConnections()`): the key its cache is kept under. Apart from
 * `connections.ts` so `createChat` can check its `mcp` option without loading MCP's modules.
 */
export const CONNECTION_CACHE = Symbol("june.mcpConnections.cache");

/** True when `value` was made by `mcpConnections()`. */
export function isMcpConnections(value: unknown): value is McpConnections {
  return typeof value === "object" && value !== null && (value as { [CONNECTION_CACHE]?: unknown })[CONNECTION_CACHE] !== undefined;
}
