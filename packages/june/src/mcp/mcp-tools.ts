import type { MCPClient } from "@ai-sdk/mcp";
import { toolSource, type ToolSourceComponent } from "../runtime/tool-source.js";
import { mcpSource } from "./mcp-source.js";

/** An MCP server started as a child process that speaks MCP on its stdin and stdout. */
export interface McpStdioServer {
  /** The program, e.g. `"npx"` or `process.execPath`. */
  command: string;
  args?: readonly string[];
  /**
   * Environment variables for the server, on top of a safe default set (`PATH`, `HOME`, ...; the MCP SDK's
   * `getDefaultEnvironment()`): the rest of this process's environment is not passed on.
   */
  env?: Readonly<Record<string, string>>;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** Where the server's stderr goes: this process's stderr (`"inherit"`, the default) or nowhere (`"ignore"`). */
  stderr?: "inherit" | "ignore";
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`); never shown in a trace, an error or a log. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * Which MCP server `<McpTools>` uses: a stdio command, a Streamable HTTP URL (a string, or `{ url, headers }`),
 * or a client you made with `@ai-sdk/mcp`'s `createMCPClient` (June never closes a client it did not open).
 */
export type McpServerSpec = McpStdioServer | McpHttpServer | string | URL | MCPClient;

/** What June tells `include`, `exclude` and `needsApproval` about one of a server's tools. */
export interface McpToolInfo {
  /** The tool's name on the server (before `prefix`). */
  readonly name: string;
  /** The name the model calls it by (`prefix` + name, or the override's `name`). */
  readonly toolName: string;
  /** The `<McpTools name>` of its server. */
  readonly server: string;
  readonly description?: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, ...), when it gave any. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** Per-tool changes, by the tool's name on the server. */
export interface McpToolOverride {
  /** The name the model calls it by (instead of `prefix` + name). */
  name?: string;
  /** Replaces the server's description. */
  description?: string;
  /** This tool's approval policy; wins over the component's `needsApproval`. */
  needsApproval?: boolean | ((input: unknown) => boolean | PromiseLike<boolean>);
}

/** Which tools need approval: all (`true`), none (`false`, the default), these names (on the server), or a function. */
export type McpApprovalPolicy =
  | boolean
  | readonly string[]
  | ((tool: McpToolInfo, input: unknown) => boolean | PromiseLike<boolean>);

/** Which tools to keep: names on the server, or a predicate. */
export type McpToolFilter = readonly string[] | ((tool: McpToolInfo) => boolean);

/** The options of `<McpTools>` (and of `mcpConnections({ tools })`). */
export interface McpToolsOptions {
  /** The server: a stdio command, a Streamable HTTP URL, or an existing `@ai-sdk/mcp` client. */
  server: McpServerSpec;
  /**
   * The server's name in the trace (`ToolCallNode.mcp.server`), in approval prompts and in errors. Default: the
   * stdio command line, or the URL's origin and path.
   */
  name?: string;
  /** Keep only these tools. */
  include?: McpToolFilter;
  /** Leave these tools out (after `include`). */
  exclude?: McpToolFilter;
  /** Put before every tool's name, to keep two servers' tools apart (`"files_"`). */
  prefix?: string;
  /** Which calls wait for `approve(id)` / `deny(id)`, through the run's approvals. Default: none. */
  needsApproval?: McpApprovalPolicy;
  /** Per-tool overrides, by the tool's name on the server. */
  tools?: Readonly<Record<string, McpToolOverride>>;
  /**
   * How long, in milliseconds, listing the server's tools or one call may wait for the server's answer.
   * Past it, a call is a tool error the model sees ("did not answer within ... ms"), a listing fails the step
   * with an `McpConnectionError`. Default: 60,000 (the MCP SDK's). Starting the server has its own 60 s bound.
   */
  timeout?: number;
  /**
   * The largest answer, in bytes, read from the server (a tool's result, its list of tools): a larger one is
   * dropped and the call is a tool error that says so. Default: 4 MiB (4,194,304).
   */
  maxResultBytes?: number;
}

/** Props of `<McpTools>`. */
export type McpToolsProps = McpToolsOptions;

/**
 * Makes an MCP server's tools callable by the steps of the enclosing `Agent`, or of the enclosing `Step` alone,
 * as `<Tool>`s would be. The server is connected when a step first needs it, shared by the run's steps and
 * closed when the run ends (a stdio server's process with it); a server that cannot be reached fails the step
 * with an `McpConnectionError` naming it. Calls are ordinary tool calls: in the trace (with `mcp.server`), and
 * through the run's approvals when `needsApproval` says so. A tool source (`toolSource()`), like `<AskUser>`.
 *
 * @example
 * <Agent model={openai("gpt-5-mini")}>
 *   <McpTools name="files" server={{ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }}
 *     include={["read_text_file", "list_directory"]} />
 *   <Step id="answer" prompt="What is in README.md?" />
 * </Agent>
 */
export const McpTools: ToolSourceComponent<McpToolsProps> = toolSource(mcpSource);
