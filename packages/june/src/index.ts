export { JuneError } from "./errors/june-error.js";
export { GuardrailTrippedError, type GuardrailStage } from "./errors/guardrail-tripped-error.js";
export { HandoffError } from "./errors/handoff-error.js";
export type { Guardrails, GuardrailVerdict, InputGuardrail, OutputGuardrail, ToolGuardrail } from "./guardrails/types.js";
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
  QuestionDeclinedError,
  ToolInputInvalidError,
  ApprovalEditRefusedError,
  RestoredFailureError,
  StreamedStepToolError,
} from "./runtime/errors.js";
export { checkpointRequests } from "./runtime/checkpoint.js";
export { Agent, Step, Tool, Parallel, Catch } from "./runtime/components.js";
export type {
  AgentProps,
  AgentToolProps,
  AgentToolRun,
  CatchProps,
  ParallelProps,
  StepOutput,
  StepProps,
  ToolProps,
  ValueToolProps,
  WorkflowNode,
} from "./runtime/components.js";
export { start } from "./runtime/start.js";
export { outputOf, type OutputValue, type PartialOutputValue } from "./runtime/step-output.js";
export { AskUser, ASK_USER_TOOL, type AskUserProps } from "./ask/ask-user.js";
export { Memory, UPDATE_MEMORY_TOOL, type MemoryProps } from "./memory/memory-element.js";
export { toolSource } from "./runtime/tool-source.js";
export type { ToolSource, ToolSourceComponent, ToolSourceProvider, ToolSourceRun, ToolSourceStep, ToolSourceTools } from "./runtime/tool-source.js";
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
  CheckpointAsk,
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
  StepAside,
  StepCheckpoint,
  StepNode,
  ToolCallNode,
  TraceError,
  TraceMessage,
  TraceNode,
  TraceNodeKind,
  Usage,
} from "./runtime/types.js";
export type { ModelAside } from "./ai-sdk/model-asides.js";
export type { Cost, Price, Prices } from "./cost/price.js";
export { formatCost } from "./cost/price.js";
export type { Budget, BudgetLimit, Spent } from "./cost/budget.js";
export { BudgetExceededError } from "./cost/errors.js";
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
export { hideFilePaths, isCredentialKey, REDACTED, redact, redactText } from "./redaction/redact.js";
export type { RedactOptions, TextRedactOptions } from "./redaction/redact.js";
