import type { ApprovalView } from "../trace/approval-view.js";
import type { ChatTraceRow } from "../trace/project-chat-trace.js";
import type { FileRef, TurnMetadata } from "../../stores/types.js";
import type { ReplySource } from "../../ai-sdk/model-asides.js";

/**
 * The one wire form of a turn: what every surface a turn leaves the process through reads (the HTTP
 * API's Server-Sent Events, `/ui-chat`'s UI message stream, `june ... --json`, the Redis bus between
 * processes, Studio). `turnStream` makes it from a `Turn`: projected (trace rows, never the raw tree),
 * redacted (June's patterns and yours), errors reduced to their name and message, each event numbered for replay. The surfaces
 * only encode it; `parseTurnStreamEvent` checks one that was read back.
 */
export type TurnStreamEvent =
  | TurnStartStreamEvent
  | TextDeltaStreamEvent
  | ReasoningStartStreamEvent
  | ReasoningDeltaStreamEvent
  | ReasoningEndStreamEvent
  | SourceStreamEvent
  | RunUpdateStreamEvent
  | ApprovalRequestStreamEvent
  | PolicyDecisionStreamEvent
  | InputRequestStreamEvent
  | TurnEndStreamEvent;

/** Always the first event (index 0): which turn this is, for the approve, deny, cancel and steer routes. */
export interface TurnStartStreamEvent {
  type: "turn-start";
  turnId: string;
  sessionId: string;
  /** The files the turn's message sent, as references (their names redacted); absent when none. */
  files?: FileRef[];
}

/** A piece of the reply, redacted (a credential split across the model's deltas is masked whole). */
export interface TextDeltaStreamEvent {
  type: "text-delta";
  text: string;
}

/** A part of the model's reasoning starts (Claude's thinking, an OpenAI reasoning summary); `id` names it until its end. */
export interface ReasoningStartStreamEvent {
  type: "reasoning-start";
  id: string;
}

/** A piece of the model's reasoning, redacted as the reply is (whole words), in its place among the text deltas. */
export interface ReasoningDeltaStreamEvent {
  type: "reasoning-delta";
  id: string;
  text: string;
}

/** A part of the model's reasoning is complete. */
export interface ReasoningEndStreamEvent {
  type: "reasoning-end";
  id: string;
}

/** A source the model cited for the reply (a link or a document), its url, title and filename redacted. */
export interface SourceStreamEvent {
  type: "source";
  source: ReplySource;
}

/** A commit of the turn's run: the whole trace, projected with `projectChatTrace` and redacted. */
export interface RunUpdateStreamEvent {
  type: "run-update";
  rows: ChatTraceRow[];
}

/** A tool call waiting for a decision (`POST /sessions/:id/turns/:turnId/approve` or `/deny`, `turn.approve`). */
export interface ApprovalRequestStreamEvent {
  type: "approval-request";
  request: ApprovalView;
}

/** A question for a person (`<AskUser />`): answer it with `POST /sessions/:id/turns/:turnId/answer` or `turn.answer(id, value)`. */
export interface InputRequestStreamEvent {
  type: "input-request";
  /** `question` redacted. */
  request: { id: string; question: string };
}

/**
 * A tool call decided without asking anyone: by the workflow's or the chat's `toolApproval`, a tool
 * guardrail (its reason names it) or a tool approved for the session. Never pending; nothing to answer.
 */
export interface PolicyDecisionStreamEvent {
  type: "policy-decision";
  decision: StreamPolicyDecision;
}

/** A decision by policy as it leaves the process: its reason redacted; never the call's input. */
export interface StreamPolicyDecision {
  id: string;
  stepId: string;
  toolName: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/** How a turn ended, as the stream says it. */
export type TurnEndStatus = "completed" | "failed" | "canceled" | "suspended" | "blocked";

/** Always the last event. */
export interface TurnEndStreamEvent {
  type: "turn-end";
  turnId: string;
  sessionId: string;
  /** `suspended`: a durable turn let go of its process; resuming it (`POST .../resume`) streams the rest. */
  status: TurnEndStatus;
  /** The reply, redacted, when the turn completed; when it was canceled, the reply streamed until then (cut). */
  text?: string;
  /** The failure, when the turn failed; the guardrail's refusal (`GuardrailTrippedError`) when it was blocked: see `errorInfo`. */
  error?: ErrorInfo;
  /** The turn's provenance, redacted, when it completed. */
  metadata?: TurnMetadata;
}

/** A failure as it leaves the process: its name and its message, redacted and bounded; never its stack or cause. */
export interface ErrorInfo {
  name: string;
  message: string;
}

export type TurnStreamEventType = TurnStreamEvent["type"];

/** An event with its index in the turn's stream: the SSE `id`, the Redis entry id, where a replay resumes. */
export interface IndexedTurnStreamEvent {
  index: number;
  event: TurnStreamEvent;
}
