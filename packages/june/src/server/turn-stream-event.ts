import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import type { TurnMetadata } from "../stores/types.js";

/**
 * The events of a turn as the HTTP API streams them (Server-Sent Events: `id:` is the event's index in the
 * turn, `event:` its `type`, `data:` the event as JSON). A redacted, projected view of the turn's own
 * events: no raw tool input, trace tree, credential or stack trace.
 */
export type TurnStreamEvent =
  | TurnStartStreamEvent
  | TextDeltaStreamEvent
  | RunUpdateStreamEvent
  | ApprovalRequestStreamEvent
  | TurnEndStreamEvent;

/** Always the first event (index 0): which turn this is, for the approve, deny, cancel and steer routes. */
export interface TurnStartStreamEvent {
  type: "turn-start";
  turnId: string;
  sessionId: string;
}

/** A piece of the reply, redacted. */
export interface TextDeltaStreamEvent {
  type: "text-delta";
  text: string;
}

/** A commit of the turn's run, projected with `projectChatTrace`. */
export interface RunUpdateStreamEvent {
  type: "run-update";
  rows: ChatTraceRow[];
}

/** A tool call waiting for `POST /turns/:id/approve` or `/deny`. */
export interface ApprovalRequestStreamEvent {
  type: "approval-request";
  request: StreamApprovalRequest;
}

/** An approval request as it leaves the server: the input is a bounded, redacted excerpt. */
export interface StreamApprovalRequest {
  id: string;
  stepId: string;
  toolName: string;
  toolCallId: string;
  /** A bounded, redacted excerpt of the input the tool would run with. */
  input: string;
}

/** Always the last event. */
export interface TurnEndStreamEvent {
  type: "turn-end";
  /** `suspended`: a durable turn let go of its process; resuming it (`POST .../resume`) streams the rest. */
  status: "completed" | "failed" | "canceled" | "suspended";
  /** The reply, when the turn completed. */
  text?: string;
  /** The failure's name and (redacted) message, when the turn failed. */
  error?: { name: string; message: string };
  /** The turn's provenance, when it completed. */
  metadata?: TurnMetadata;
}

export type TurnStreamEventType = TurnStreamEvent["type"];
