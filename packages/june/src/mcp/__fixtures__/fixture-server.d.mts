import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export function createFixtureServer(options?: { onCall?: (call: { tool: string; input: unknown }) => void; name?: string }): McpServer;
