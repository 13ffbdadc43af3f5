import type { Tool as AITool } from "ai";
import { raceAbort } from "./scheduler.js";
import { MCP_REQUEST_TIMEOUT_MS, serverTarget } from "../mcp/connect.js";
import type { ConnectionCache, RunMcp } from "../mcp/connections.js";
import { McpToolNameError } from "../mcp/errors.js";
import type { McpToolsOptions } from "../mcp/mcp-tools.js";
import { mcpToolSet, type McpToolOrigin } from "../mcp/tool-set.js";

/** One level of a step's tool scope, outermost first: its `<Tool>`s and its `<McpTools>`. */
export interface ToolLayer {
  readonly tools: Readonly<Record<string, AITool<any, any>>>;
  readonly mcp: readonly McpToolsOptions[];
}

/** A step's tools, with the MCP origin of each MCP tool by the name the model calls it. */
export interface StepTools {
  readonly tools: Record<string, AITool<any, any>>;
  readonly origins: ReadonlyMap<string, McpToolOrigin>;
}

/** True when a step has MCP tools to connect: an `<McpTools>` in its scope, or servers the run adds to every step. */
export function needsMcp(layers: readonly ToolLayer[], mcp: RunMcp): boolean {
  return mcp.ambient.length > 0 || layers.some((layer) => layer.mcp.length > 0);
}

/**
 * Connects (or reuses) every MCP server in a step's scope, lists its tools and merges them with the `<Tool>`s:
 * the run's ambient servers first, then each scope level outermost first, an inner name winning over an outer
 * one, as with `<Tool>`s. Two tools of one level with the same name are an `McpToolNameError` (use `prefix`).
 *
 * @throws McpConnectionError naming a server that could not be reached.
 */
export async function resolveStepTools(layers: readonly ToolLayer[], mcp: RunMcp, signal: AbortSignal): Promise<StepTools> {
  const levels: { tools: Readonly<Record<string, AITool<any, any>>>; servers: { options: McpToolsOptions; cache: ConnectionCache }[] }[] = [
    { tools: {}, servers: mcp.ambient.map((a) => ({ options: a.options, cache: a.cache })) },
    ...layers.map((layer) => ({ tools: layer.tools, servers: layer.mcp.map((options) => ({ options, cache: mcp.cache })) })),
  ];
  // Every server at once: a step waits for the slowest, not for their sum.
  const sets = await raceAbort(
    Promise.all(levels.map((level) => Promise.all(level.servers.map(({ options, cache }) => serverTools(options, cache))))),
    signal,
  );
  const tools: Record<string, AITool<any, any>> = {};
  const origins = new Map<string, McpToolOrigin>();
  levels.forEach((level, index) => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(level.tools)) seen.set(name, `<Tool name="${name}">`);
    for (const set of sets[index]!) {
      for (const name of Object.keys(set.tools)) {
        const other = seen.get(name);
        const origin = set.origins.get(name)!;
        if (other) {
          throw new McpToolNameError(
            `Two tools are named "${name}": ${other} and the MCP server "${origin.server}"'s; give <McpTools> a \`prefix\``,
            { toolName: name },
          );
        }
        seen.set(name, `the MCP server "${origin.server}"'s`);
      }
    }
    for (const [name, value] of Object.entries(level.tools)) {
      tools[name] = value;
      origins.delete(name);
    }
    for (const set of sets[index]!) {
      Object.assign(tools, set.tools);
      for (const [name, origin] of set.origins) origins.set(name, origin);
    }
  });
  return { tools, origins };
}

async function serverTools(options: McpToolsOptions, cache: ConnectionCache) {
  const target = serverTarget(options.server, options.maxResultBytes);
  const name = options.name ?? target.label;
  const connection = await cache.get(target, name);
  return mcpToolSet(options, name, await connection.tools(options.timeout ?? MCP_REQUEST_TIMEOUT_MS), connection);
}
