/**
 * `june/stream`: the one wire form of a turn (see `TurnStreamEvent`), the function that makes it from a
 * `Turn` (`turnStream`), and the checks a reader runs on what it reads back (`parseTurnStreamEvent`). It
 * imports nothing of Node: a browser app (Studio) imports its types with `import type` and its schema as is.
 */
export type {
  ApprovalRequestStreamEvent,
  PolicyDecisionStreamEvent,
  InputRequestStreamEvent,
  StreamPolicyDecision,
  IndexedTurnStreamEvent,
  RunUpdateStreamEvent,
  ErrorInfo,
  TextDeltaStreamEvent,
  ReasoningStartStreamEvent,
  ReasoningDeltaStreamEvent,
  ReasoningEndStreamEvent,
  SourceStreamEvent,
  TurnEndStatus,
  TurnEndStreamEvent,
  TurnStartStreamEvent,
  TurnStreamEvent,
  TurnStreamEventType,
} from "./turn-stream-event.js";
export type {
  ChatTraceApprovalRow,
  ChatTraceAttempt,
  ChatTraceMessage,
  ChatTraceModelRow,
  ChatTraceRowKind,
  ChatTraceRowStatus,
  ChatTraceStepRow,
  ChatTraceToolRow,
} from "../trace/project-chat-trace.js";
export type { ReplySource } from "../../ai-sdk/model-asides.js";
export { isTurnStreamEventType, parseTurnStreamEvent, TURN_STREAM_EVENT_TYPES } from "./turn-stream-schema.js";
export { TurnStreamEventError } from "./turn-stream-event-error.js";
export { turnStream } from "./turn-stream.js";
export { isUnfinished } from "../unfinished.js";
export { approvalView, MAX_INPUT_VALUE_JSON_CHARS } from "../trace/approval-view.js";
export type { ApprovalView, ApprovalViewSource } from "../trace/approval-view.js";
export type { TurnStreamOptions } from "./turn-stream.js";
export { errorInfo, MAX_ERROR_MESSAGE_CHARS } from "./error-info.js";
export type { ErrorInfoOptions } from "./error-info.js";
export { applyTraceRowChanges, traceRowChanges } from "./trace-row-changes.js";
export { juneTraceDataSchema } from "./june-trace-data.js";
export type { JuneTraceData, JuneTraceDataSchema } from "./june-trace-data.js";
export type { TraceRowChange, TraceRowChanges } from "./trace-row-changes.js";
