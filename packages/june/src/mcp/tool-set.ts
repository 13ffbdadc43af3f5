import type { Tool as AITool } from "ai";
import { MCP_REQUEST_TIMEOUT_MS, type McpConnection } from "./connect.js";
import { McpToolError } from "./errors.js";
import type { McpToolFilter, McpToolInfo, McpToolsOptions } from "./mcp-tools.js";

/** Where an MCP tool of a step came from: its server's name and the tool's name there. */
export interface McpToolOrigin {
  readonly server: string;
  readonly tool: string;
}

/** A server's tools as a step offers them, and the origin of each, by the name the model calls it. */
export interface McpToolSet {
  readonly tools: Record<string, AITool<any, any>>;
  readonly origins: ReadonlyMap<string, McpToolOrigin>;
}

/**
 * Applies `<McpTools>` options to a server's tools: `include`, then `exclude`, the `prefix` (or a tool's own
 * `name` override), descriptions, and `needsApproval` (a tool's override wins over the component's policy).
 * A call goes through `connection.call` (bounded by `timeout` and the connection's `maxResultBytes`); one that
 * fails, or that the server answers with `isError: true`, throws an `McpToolError`, so it is a tool error: the
 * model sees its message (credentials masked) and the trace shows the call failed.
 */
export function mcpToolSet(
  options: McpToolsOptions,
  server: string,
  listed: Record<string, AITool<any, any>>,
  connection: Pick<McpConnection, "call" | "scrub">,
): McpToolSet {
  const timeout = options.timeout ?? MCP_REQUEST_TIMEOUT_MS;
  const tools: Record<string, AITool<any, any>> = {};
  const origins = new Map<string, McpToolOrigin>();
  const overrides = options.tools ?? {};
  for (const [name, value] of Object.entries(listed)) {
    const override = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
    const toolName = override?.name ?? `${options.prefix ?? ""}${name}`;
    const annotations = (value as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations;
    const info: McpToolInfo = Object.freeze({
      name,
      toolName,
      server,
      ...(typeof value.description === "string" ? { description: value.description } : {}),
      ...(annotations !== undefined ? { annotations } : {}),
    });
    if (options.include !== undefined && !matches(options.include, info)) continue;
    if (options.exclude !== undefined && matches(options.exclude, info)) continue;
    const needsApproval = approvalOf(options, override?.needsApproval, info);
    const execute = value.execute;
    tools[toolName] = {
      ...value,
      ...(override?.description !== undefined ? { description: override.description } : {}),
      ...(needsApproval !== undefined ? { needsApproval } : {}),
      ...(typeof execute === "function"
        ? {
            execute: async (input: unknown, callOptions: { abortSignal?: AbortSignal } | undefined) => {
              const output = await connection.call(
                name,
                (abortSignal) => Promise.resolve(execute.call(value, input, { ...callOptions, abortSignal } as never)),
                { signal: callOptions?.abortSignal, timeout },
              );
              if (isErrorResult(output)) throw new McpToolError(connection.scrub(errorText(output, name)), { server, tool: name });
              return output;
            },
          }
        : {}),
    } as AITool<any, any>;
    origins.set(toolName, { server, tool: name });
  }
  return { tools, origins };
}

function matches(filter: McpToolFilter, info: McpToolInfo): boolean {
  return typeof filter === "function" ? Boolean(filter(info)) : filter.includes(info.name);
}

type NeedsApproval = boolean | ((input: unknown) => boolean | PromiseLike<boolean>);

function approvalOf(options: McpToolsOptions, override: NeedsApproval | undefined, info: McpToolInfo): NeedsApproval | undefined {
  if (override !== undefined) return override;
  const policy = options.needsApproval;
  if (policy === undefined || policy === false) return undefined;
  if (policy === true) return true;
  if (typeof policy === "function") return (input: unknown) => policy(info, input);
  return policy.includes(info.name) ? true : undefined;
}

function isErrorResult(output: unknown): output is { isError: true; content?: unknown } {
  return typeof output === "object" && output !== null && (output as { isError?: unknown }).isError === true;
}

function errorText(output: { content?: unknown }, tool: string): string {
  const parts = Array.isArray(output.content) ? output.content : [];
  const text = parts
    .flatMap((part: unknown) => {
      const p = part as { type?: unknown; text?: unknown };
      return p.type === "text" && typeof p.text === "string" ? [p.text] : [];
    })
    .join("\n");
  return text === "" ? `The MCP tool "${tool}" reported an error` : text;
}
