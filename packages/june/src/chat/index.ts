/**
 * `june/chat`: what a chat's user needs. A chat from a model, a responder or a workflow (`createChat`,
 * `modelResponder`, `agentResponder`), its sessions, turns and their events, the responder contract, the
 * context builders, the four stores (the SQLite and PostgreSQL drivers are optional and load only when their
 * store opens), a turn's trace as rows (`projectChatTrace`), and the errors a chat throws. What a store's
 * author needs (journal entries, leases, conformance cases) is in `june/store-kit`; the turn stream's wire
 * form and the row shapes a UI draws are in `june/stream`. docs/api.md lists every entry.
 */
export type {
  ApprovalRequestEvent,
  PolicyDecisionEvent,
  InputRequestEvent,
  ApproveOptions,
  Chat,
  ChatFactory,
  ChatFactoryOptions,
  Session,
  ContextBuilder,
  ContextOptions,
  ContextResult,
  PendingApproval,
  Responder,
  ResponderCheckpoint,
  ResponderExecution,
  ResponderMetadata,
  ResponderResult,
  RespondOptions,
  ResumeOptions,
  RunUpdateEvent,
  TextDeltaEvent,
  Turn,
  TurnCommand,
  TurnEvent,
  TurnFeedback,
  TurnRecord,
  TurnResult,
  TurnStatus,
} from "./types.js";
export type { ResponderTraceNode } from "./trace/responder-trace.js";
export type { ChatStore, FileRef, SessionInfo, TurnMetadata } from "../stores/types.js";
export type { TurnInput } from "./files/turn-input.js";
export { FileRejectedError } from "./files/errors.js";
export {
  CheckpointUnreadableError,
  InvalidSessionIdError,
  JournalCorruptError,
  SessionBusyError,
  SessionNotFoundError,
  StoreClosedError,
  StoreDriverMissingError,
  StoreOpenError,
} from "../stores/errors.js";
export { createChat } from "./create-chat.js";
export type { CreateChatOptions } from "./create-chat.js";
export { modelResponder } from "./responders/model/model-responder.js";
export type { ModelResponderOptions } from "./responders/model/model-responder.js";
export { agentResponder } from "./responders/agent/agent-responder.js";
export type { AgentResponderOptions } from "./responders/agent/agent-responder.js";
export { fullContext } from "./context/full-context.js";
export { recentTurns } from "./context/recent-turns.js";
export { summarizedContext } from "./context/summarized-context.js";
export type { SummarizedContextOptions } from "./context/summarized-context.js";
export { tokenBudget } from "./context/token-budget.js";
export { tokenCounter } from "./context/token-counter.js";
export type { TokenBudgetOptions } from "./context/token-budget.js";
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
export type { DurableOptions } from "./durable/checkpoint-codec.js";
export type { AgentTeamOptions } from "./responders/agent/agent-team.js";
export { AgentReplyError, StreamMismatchError } from "./responders/agent/errors.js";
export { projectChatTrace } from "./trace/project-chat-trace.js";
export type { ChatTraceRow } from "./trace/project-chat-trace.js";
export { toUIMessages } from "./ui-messages.js";
export { fileStore, memoryStore } from "../stores/index.js";
export type { FileStoreOptions } from "../stores/index.js";
export { sqliteStore } from "../stores/sqlite/sqlite-store.js";
export type { SqliteStoreOptions } from "../stores/sqlite/sqlite-store.js";
export { postgresStore } from "../stores/postgres/postgres-store.js";
export type { PostgresStoreOptions } from "../stores/postgres/postgres-store.js";
