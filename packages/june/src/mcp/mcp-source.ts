import type { ToolSource, ToolSourceTools } from "../runtime/tool-source.js";
import { checkMcpToolsOptions } from "./check-options.js";
import { MCP_REQUEST_TIMEOUT_MS, serverTarget } from "./connect.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { McpConnections } from "./connections.js";
import { McpToolNameError } from "./errors.js";
import type { McpToolsOptions, McpToolsProps } from "./mcp-tools.js";
import { RunMcp } from "./run-mcp.js";
import { mcpToolSet } from "./tool-set.js";

/**
 * `<McpTools>` as a tool source: its options checked as the workflow renders; per run, where its servers connect
 * (the connections given or in effect, else the run's own, closed as the run ends) and the servers every step
 * gets (`mcpConnections({ tools })`); as a step starts, each server in its scope connected (or reused) and
 * listed, all at once.
 */
export const mcpSource: ToolSource<McpToolsProps, McpToolsOptions, RunMcp> = {
  name: "McpTools",
  check(props) {
    const problem = checkMcpToolsOptions(props);
    if (problem) throw new TypeError(problem);
    return props;
  },
  label: (props) => (typeof props.name === "string" ? `<McpTools name="${props.name}">` : undefined),
  open: (run) => new RunMcp(run.provided as McpConnections[]),
  close: (session) => session.close(),
  stepTools({ levels, session }) {
    // A step with no server in its scope and none the run adds connects nothing, and does not wait.
    if (session.ambient.length === 0 && levels.every((entries) => entries.length === 0)) return undefined;
    const servers = levels.map((entries, index) =>
      index === 0 ? session.ambient : entries.map((options) => ({ options, cache: session.cache })),
    );
    return Promise.all(servers.map((level) => Promise.all(level.map(({ options, cache }) => serverTools(options, cache)))));
  },
  nameClash: (name, first, second) =>
    new McpToolNameError(`Two tools are named "${name}": ${first} and ${second}; give <McpTools> a \`prefix\``, { toolName: name }),
};

/** One server's tools, connected through `cache` (or its open connection) and listed. */
async function serverTools(options: McpToolsOptions, cache: ConnectionCache): Promise<ToolSourceTools> {
  const target = serverTarget(options.server, options.maxResultBytes);
  const name = options.name ?? target.label;
  const connection = await cache.get(target, name);
  const set = mcpToolSet(options, name, await connection.tools(options.timeout ?? MCP_REQUEST_TIMEOUT_MS), connection);
  return { tools: set.tools, origins: set.origins, label: `the MCP server "${name}"'s` };
}
