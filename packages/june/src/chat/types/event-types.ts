import type { ApprovalRequest, PolicyApproval } from "../../runtime/types.js";
import type { ResponderTraceNode } from "../trace/responder-trace.js";
import type { ReplySource } from "../../ai-sdk/model-asides.js";

/** A piece of the reply as it is written. */
export interface TextDeltaEvent {
  type: "text-delta";
  text: string;
}
/**
 * A snapshot of the turn's trace tree: an agent turn's run (the runtime's `TraceNode`), a model turn's call,
 * or whatever a custom responder reports (see `ResponderTraceNode`).
 */
export interface RunUpdateEvent {
  type: "run-update";
  tree: ResponderTraceNode;
}
/** A tool call waiting for `turn.approve(id)` or `turn.deny(id, reason)`. */
export interface ApprovalRequestEvent {
  type: "approval-request";
  request: ApprovalRequest;
}
/** The live events of a turn, discriminated on `type`. */
/** A question the workflow asks a person (`<AskUser />`): answer it with `turn.answer(request.id, value)`. */
export interface InputRequestEvent {
  type: "input-request";
  request: InputRequest;
}

/** A question waiting for a person's answer. */
export interface InputRequest {
  id: string;
  question: string;
  stepId?: string;
  toolCallId?: string;
}

/**
 * A tool call the workflow's `toolApproval` (or a tool guardrail, or "remember for this session") decided:
 * no one is asked, nothing is pending. The turn emits it once per decision, after the run update that holds it.
 */
export interface PolicyDecisionEvent {
  type: "policy-decision";
  decision: PolicyApproval;
}

/** The model starts a part of its reasoning (thinking, a reasoning summary); `id` names it until its end. */
export interface ReasoningStartEvent {
  type: "reasoning-start";
  id: string;
}
/** A piece of the model's reasoning, in its place among the reply's text deltas. */
export interface ReasoningDeltaEvent {
  type: "reasoning-delta";
  id: string;
  text: string;
}
/** A part of the model's reasoning is complete. */
export interface ReasoningEndEvent {
  type: "reasoning-end";
  id: string;
}
/** A source the model cites for its reply (a web-search result, a document): kept with the reply. */
export interface SourceEvent {
  type: "source";
  source: ReplySource;
}

/** What a turn emits: its responder's events, and the decisions taken by policy (a responder's own `policy-decision`s are dropped). */
export type TurnEvent =
  | TextDeltaEvent
  | ReasoningStartEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | SourceEvent
  | RunUpdateEvent
  | ApprovalRequestEvent
  | InputRequestEvent
  | PolicyDecisionEvent;
