export { JuneError } from "./errors/june-error.js";
export { Fragment } from "./jsx/element.js";
export type { JuneElement, JuneNode } from "./jsx/element.js";
export {
  RenderError,
  RunError,
  TimeoutError,
  CanceledError,
  CheckpointMismatchError,
  StepResultNotSerializableError,
  MissingModelError,
  ToolDeniedError,
  ToolInputInvalidError,
  RestoredFailureError,
} from "./runtime/errors.js";
export { checkpointRequests } from "./runtime/checkpoint.js";
export { Agent, Step, Tool, Parallel, Catch } from "./runtime/components.js";
export type {
  AgentProps,
  CatchProps,
  ParallelProps,
  StepOutput,
  StepProps,
  ToolProps,
  WorkflowNode,
} from "./runtime/components.js";
export { start } from "./runtime/start.js";
export type {
  ToolApprovalDecision,
  ToolApprovalFunction,
  ToolApprovalPolicy,
  ToolApprovalRule,
  ToolApprovalRuleOptions,
  ToolApprovalStatus,
} from "./runtime/tool-approval.js";
export type { TelemetryOption, TelemetrySettings } from "./telemetry/index.js";
export type { AiTelemetrySettings } from "./ai-sdk/telemetry-settings.js";
export type {
  AgentNode,
  ApprovalDecision,
  ApprovalRequest,
  ApprovalState,
  CallSettings,
  CatchNode,
  CheckpointRequest,
  DecisionOutcome,
  ModelAttemptFailure,
  ModelCallNode,
  ModelInfo,
  NodeStatus,
  ParallelNode,
  PolicyApproval,
  Prompt,
  RunContext,
  RunHandle,
  RunNode,
  RunCheckpoint,
  RunResult,
  RunStatus,
  StartOptions,
  StepCheckpoint,
  StepNode,
  ToolCallNode,
  TraceError,
  TraceMessage,
  TraceNode,
  TraceNodeKind,
  Usage,
} from "./runtime/types.js";
export { McpTools } from "./mcp/mcp-tools.js";
export type {
  McpApprovalPolicy,
  McpHttpServer,
  McpServerSpec,
  McpStdioServer,
  McpToolFilter,
  McpToolInfo,
  McpToolOverride,
  McpToolsOptions,
  McpToolsProps,
} from "./mcp/mcp-tools.js";
export { mcpConnections } from "./mcp/connections.js";
export type { McpConnections, McpConnectionsOptions } from "./mcp/connections.js";
export { McpConnectionError, McpToolError, McpToolNameError } from "./mcp/errors.js";
export type { McpToolErrorReason } from "./mcp/errors.js";
