export type {
  ApprovalRequestEvent,
  PolicyDecisionEvent,
  InputRequestEvent,
  InputRequest,
  AnswerCommand,
  ApproveCommand,
  ApproveOptions,
  CancelCommand,
  Chat,
  ChatFactory,
  ChatFactoryOptions,
  Session,
  ContextBuilder,
  ContextOptions,
  ContextResult,
  DenyCommand,
  PendingApproval,
  Responder,
  ResponderCheckpoint,
  ResponderEvent,
  ResponderExecution,
  ResponderMetadata,
  ResponderResult,
  RespondOptions,
  ResumeOptions,
  RunUpdateEvent,
  SteerCommand,
  TextDeltaEvent,
  Turn,
  TurnCommand,
  TurnEvent,
  TurnFeedback,
  TurnRecord,
  TurnResult,
  TurnStatus,
} from "./types.js";
export type * from "../stores/types.js";
export {
  CheckpointUnreadableError,
  ConflictError,
  InvalidSessionIdError,
  JournalCorruptError,
  SessionBusyError,
  SessionNotFoundError,
} from "../stores/errors.js";
export { createChat } from "./create-chat.js";
export type { TelemetryOption, TelemetrySettings } from "../telemetry/index.js";
export type { ChatOptions, CreateChatOptions, ModelChatOptions, ResponderChatOptions } from "./create-chat.js";
export { modelResponder } from "./responders/model/model-responder.js";
export type { ModelResponderOptions } from "./responders/model/model-responder.js";
export { fullContext } from "./context/full-context.js";
export { contextTurnIds } from "./context/resolve-context.js";
export { recentTurns } from "./context/recent-turns.js";
export { summarizedContext, summaryMessage } from "./context/summarized-context.js";
export type { SummarizedContextOptions } from "./context/summarized-context.js";
export { estimateTokens, tokenBudget } from "./context/token-budget.js";
export type { TokenBudgetOptions } from "./context/token-budget.js";
export { turnMessages } from "./context/turn-messages.js";
export {
  ApprovalNotPendingError,
  ContextBuildError,
  InputTooLargeError,
  ResponderContractError,
  SteerNotSupportedError,
  TurnEndedError,
  TurnNotCompletedError,
  TurnNotFoundError,
  TurnNotResumableError,
  TurnSuspendedError,
} from "./errors.js";
export type { TurnControlName } from "./errors.js";
export { DEFAULT_SUSPEND_AFTER_MS } from "./durable/checkpoint-codec.js";
export type { DurableOption, DurableOptions } from "./durable/checkpoint-codec.js";
export { CheckpointMismatchError } from "../runtime/errors.js";
export { MAX_FEEDBACK_COMMENT_CHARS, MAX_FEEDBACK_TAG_CHARS, MAX_FEEDBACK_TAGS, normalizeFeedback } from "./feedback.js";
export { CanceledError } from "../runtime/errors.js";
export { agentResponder } from "./responders/agent/agent-responder.js";
export type {
  AgentRenderOptions,
  AgentResponder,
  AgentResponderOptions,
  AgentRunOptions,
  AgentTurnInfo,
  StartAgentRun,
} from "./responders/agent/agent-responder.js";
export { AgentReplyError, StreamMismatchError } from "./responders/agent/errors.js";
export { projectChatTrace } from "./trace/project-chat-trace.js";
export { toUIMessages } from "./ui-messages.js";
export type {
  ChatTraceApprovalRow,
  ChatTraceAttempt,
  ChatTraceMessage,
  ChatTraceModelRow,
  ChatTraceRow,
  ChatTraceRowKind,
  ChatTraceRowStatus,
  ChatTraceStepRow,
  ChatTraceToolRow,
  ProjectChatTraceOptions,
} from "./trace/project-chat-trace.js";
export { hideFilePaths, isCredentialKey, REDACTED, redact, redactText } from "../redaction/redact.js";
export type { RedactOptions, TextRedactOptions } from "../redaction/redact.js";
export { fileStore, memoryStore } from "../stores/index.js";
export type { FileStoreOptions } from "../stores/index.js";
export { GuardrailTrippedError, type GuardrailStage } from "../errors/guardrail-tripped-error.js";
export type { Guardrails, GuardrailVerdict, InputGuardrail, OutputGuardrail, ToolGuardrail } from "../guardrails/types.js";
