import type { ApprovalRequest } from "../../runtime/types.js";
import type { ResponderTraceNode } from "../trace/responder-trace.js";
import { redact, redactText, type TextRedactOptions } from "../../redaction/redact.js";
import { StreamRedactor } from "../../redaction/stream-redactor.js";
import { projectChatTrace, type ChatTraceRow } from "../trace/project-chat-trace.js";
import type { Turn, TurnEvent, TurnResult } from "../types.js";
import { errorInfo } from "./error-info.js";
import type { IndexedTurnStreamEvent, TurnEndStreamEvent, TurnStreamEvent } from "./turn-stream-event.js";
import { approvalView } from "../trace/approval-view.js";

/** Options for `turnStream`. */
export interface TurnStreamOptions {
  /** Patterns of your own, masked after June's in every event (see `redactText`). */
  redaction?: TextRedactOptions;
}

/**
 * A turn as the one stream every surface sends out of the process: `turn-start` (index 0), the reply's
 * `text-delta`s with the model's reasoning (`reasoning-start`, `-delta`, `-end`) and its `source`s where it sent them, a `run-update` per commit of its run, an `approval-request` per tool call waiting for a
 * decision, and `turn-end` last. This is where a turn is made safe to show, once, for all of them:
 *
 * - trace trees become `projectChatTrace` rows (a tree the projection cannot read is skipped, not fatal);
 * - everything is redacted, June's patterns then `redaction`'s; the reply goes through a `StreamRedactor`,
 *   so a key the model writes a few characters at a time is masked whole, and the text before a tool call
 *   is released in full before its approval request;
 * - a failure becomes its `errorInfo` (name and message, bounded; never a stack);
 * - each event carries its `index`, the id a reader resumes after (SSE `Last-Event-ID`, Redis entry ids).
 *
 * The stream reads the turn's own events, at the pace of its reader, and never drives the turn: approve,
 * deny, cancel or steer it on the `Turn`. It ends after `turn-end` and never throws.
 *
 * @example
 * for await (const { index, event } of turnStream(session.send("Deploy"), { redaction: { patterns: [/acme_\w+/g] } })) {
 *   console.log(index, JSON.stringify(event));
 * }
 */
export async function* turnStream(turn: Turn, options: TurnStreamOptions = {}): AsyncGenerator<IndexedTurnStreamEvent, void, undefined> {
  const redaction = options.redaction ?? {};
  let index = 0;
  const indexed = (event: TurnStreamEvent): IndexedTurnStreamEvent => ({ index: index++, event });
  const files = (turn.files ?? []).map((file) => (file.filename === undefined ? { ...file } : { ...file, filename: redactText(file.filename, redaction) }));
  yield indexed({ type: "turn-start", turnId: turn.id, sessionId: turn.sessionId, ...(files.length > 0 && { files }) });
  // Deltas are a few characters each: a key split across them is only caught by redacting whole words.
  const text = new StreamRedactor(redaction);
  // What went out, for a canceled turn's end: the reply it keeps, as its readers saw it.
  let streamed = "";
  const textRest = (): TurnStreamEvent | undefined => {
    const rest = text.flush();
    streamed += rest;
    return rest !== "" ? { type: "text-delta", text: rest } : undefined;
  };
  // The reasoning is redacted the same way, each part on its own; what is held of it goes out before anything else does.
  const reasoning = new StreamRedactor(redaction);
  let reasoningId: string | undefined;
  const reasoningRest = (): TurnStreamEvent | undefined => {
    const id = reasoningId;
    reasoningId = undefined;
    const rest = reasoning.flush();
    return id !== undefined && rest !== "" ? { type: "reasoning-delta", id, text: rest } : undefined;
  };
  try {
    for await (const event of turn) {
      if (event.type === "text-delta") {
        if (reasoningId !== undefined) {
          const held = reasoningRest();
          if (held) yield indexed(held);
        }
        const safe = text.push(event.text);
        streamed += safe;
        if (safe !== "") yield indexed({ type: "text-delta", text: safe });
        continue;
      }
      // What the model wrote before a request, a reasoning part or a source is released first, in full.
      const held = [textRest(), event.type === "reasoning-delta" && event.id === reasoningId ? undefined : reasoningRest()];
      for (const before of held) if (before) yield indexed(before);
      if (event.type === "reasoning-delta") {
        reasoningId = event.id;
        const safe = reasoning.push(event.text);
        if (safe !== "") yield indexed({ type: "reasoning-delta", id: event.id, text: safe });
        continue;
      }
      const projected = project(event, turn, redaction);
      if (projected) yield indexed(projected);
    }
  } catch {
    // A turn's iteration ends normally even when it fails; the failure itself comes through `result`.
  }
  for (const rest of [reasoningRest(), textRest()]) if (rest) yield indexed(rest);
  yield indexed(await turnEnd(turn, redaction, streamed));
}

/** Options for `streamTraceRows`. */
export interface StreamTraceRowsOptions {
  /** The run's pending approval requests: an approval row shows only while its request is here. */
  requests?: readonly ApprovalRequest[];
  /** Patterns of your own, masked after June's (see `redactText`). */
  redaction?: TextRedactOptions;
}

/**
 * A run's trace as it leaves the process: `projectChatTrace` rows (bounded, redacted with June's patterns),
 * then masked with `redaction`'s. A turn's `run-update`s carry these rows, and `june run` prints its run's
 * with it, so a workflow run shows what a chat turn would. Throws what `projectChatTrace` throws.
 */
export function streamTraceRows(tree: ResponderTraceNode, options: StreamTraceRowsOptions = {}): ChatTraceRow[] {
  return ownPatterns(projectChatTrace(tree, { requests: options.requests ?? [] }), options.redaction ?? {});
}

/** A turn's own event as it leaves the process, or nothing when it cannot be shown safely. */
function project(event: Exclude<TurnEvent, { type: "text-delta" | "reasoning-delta" }>, turn: Turn, redaction: TextRedactOptions): TurnStreamEvent | undefined {
  switch (event.type) {
    case "reasoning-start":
    case "reasoning-end":
      return { type: event.type, id: event.id };
    case "source":
      return { type: "source", source: redact(event.source, redaction) };
    case "run-update":
      try {
        // A question (`ask_user`) is answered in its own box (`input-request`), not approved from its row.
        return { type: "run-update", rows: streamTraceRows(event.tree, { requests: turn.requests.filter((r) => r.question === undefined), redaction }) };
      } catch {
        // A tree the projection does not understand (a custom responder's) is not worth failing the stream.
        return undefined;
      }
    case "approval-request":
      return { type: "approval-request", request: approvalView(event.request, redaction) };
    case "input-request":
      return { type: "input-request", request: { id: event.request.id, question: ownPatterns(event.request.question, redaction) } };
    case "policy-decision": {
      const { id, stepId, toolName, toolCallId, approved, reason } = event.decision;
      return { type: "policy-decision", decision: { id, stepId, toolName, toolCallId, approved, ...(reason !== undefined ? { reason: ownPatterns(reason, redaction) } : {}) } };
    }
    default: {
      const unreachable: never = event;
      void unreachable;
      return undefined;
    }
  }
}

/** The last event; a canceled turn's carries the reply streamed until it stopped (`streamed`, redacted already). */
async function turnEnd(turn: Turn, redaction: TextRedactOptions, streamed: string): Promise<TurnEndStreamEvent> {
  const ids = { turnId: turn.id, sessionId: turn.sessionId };
  let result: TurnResult;
  try {
    result = await turn.result;
  } catch (error) {
    if (turn.status === "canceled") return { type: "turn-end", ...ids, status: "canceled", ...(streamed !== "" ? { text: streamed } : {}) };
    if (turn.status === "suspended") return { type: "turn-end", ...ids, status: turn.status };
    if (turn.status === "blocked") return { type: "turn-end", ...ids, status: "blocked", error: errorInfo(error, { redaction }) };
    return { type: "turn-end", ...ids, status: "failed", error: errorInfo(error, { redaction }) };
  }
  const end: TurnEndStreamEvent = { type: "turn-end", ...ids, status: "completed", text: redactText(result.text, redaction) };
  if (result.metadata !== undefined) end.metadata = redact(result.metadata, redaction);
  return end;
}

/** Patterns of the user's own, over what June already projected and redacted. */
function ownPatterns<T>(value: T, redaction: TextRedactOptions): T {
  return redaction.patterns?.length ? redact(value, redaction) : value;
}

