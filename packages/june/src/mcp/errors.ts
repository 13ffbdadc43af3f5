import { JuneError } from "../errors/june-error.js";

/** An MCP server that could not be started, reached or initialized, or whose tools could not be listed. */
export class McpConnectionError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.McpConnectionError");
  override readonly name = "McpConnectionError";
  /** The server's name (`<McpTools name>`, or the command line or URL it defaults to). */
  readonly server: string;
  constructor(message: string, options: { server: string; cause?: unknown }) {
    super(message, options);
    this.server = options.server;
  }
}

/**
 * Why an MCP tool call failed: the server answered with an error result (`isError: true`), it did not answer
 * within `timeout`, its answer was larger than `maxResultBytes`, or the request failed (the server's error
 * answer, a closed connection).
 */
export type McpToolErrorReason = "error-result" | "timeout" | "too-large" | "failed";

/** A tool call to an MCP server that failed (see `reason`). The model sees its message; credentials are masked in it. */
export class McpToolError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.McpToolError");
  override readonly name = "McpToolError";
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  readonly reason: McpToolErrorReason;
  constructor(message: string, options: { server: string; tool: string; reason?: McpToolErrorReason }) {
    super(message);
    this.server = options.server;
    this.tool = options.tool;
    this.reason = options.reason ?? "error-result";
  }
}

/** Two tools of one step's scope share a name: an `<McpTools>` and a `<Tool>`, or two servers. */
export class McpToolNameError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.McpToolNameError");
  override readonly name = "McpToolNameError";
  readonly toolName: string;
  constructor(message: string, options: { toolName: string }) {
    super(message);
    this.toolName = options.toolName;
  }
}
