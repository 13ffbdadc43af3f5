import type { TurnCommand } from "../chat/types.js";
import { type JsonObject, optionalString, rejectUnknownFields, requireString } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError, withInputErrors } from "./http-error.js";
import type { ServedTurn } from "./turn-event-bus.js";
import { jsonValueIssue } from "../runtime/edited-input.js";

/**
 * Refuses a person's value (an answer, an edited input) that is not bounded plain JSON (see `jsonValueIssue`)
 * with a 400 naming what is wrong, before any turn sees it: the turn is untouched.
 */
export function requireBoundedValue(value: unknown, field: string): void {
  const issue = jsonValueIssue(value, field);
  if (issue !== undefined) throw new HttpError(400, `"${field}" is refused: ${issue}`);
}

/** The answer an `answer` body gives (`{ requestId, value }`: a string or any JSON value). */
export function answerOf(fields: JsonObject): TurnCommand {
  rejectUnknownFields(fields, ["requestId", "value"]);
  const requestId = requireString(fields, "requestId", { nonEmpty: true });
  if (!("value" in fields) || fields.value === undefined) throw new HttpError(400, `"value" is required: the answer, a string or any JSON value`);
  requireBoundedValue(fields.value, "value");
  return { type: "answer", requestId, value: fields.value };
}

/**
 * The decision an `approve` or `deny` body asks for (`{ approvalId, remember?, input? }` / `{ approvalId,
 * reason? }`). `input` runs the tool with it in place of the model's (checked against the tool's schema by the
 * turn: a 400 naming what is wrong, and the request stays pending).
 */
export function decisionOf(fields: JsonObject, kind: "approve" | "deny"): TurnCommand {
  if (kind === "approve") {
    rejectUnknownFields(fields, ["approvalId", "remember", "input"]);
    const approvalId = requireString(fields, "approvalId", { nonEmpty: true });
    const remember = optionalString(fields, "remember");
    if (remember !== undefined && remember !== "session") throw new HttpError(400, `"remember" must be "session"`);
    const input = fields.input;
    if (input === null) throw new HttpError(400, `"input" must be the tool's input when given, got null`);
    if (input !== undefined) requireBoundedValue(input, "input");
    return { type: "approve", approvalId, ...(remember && { remember }), ...(input !== undefined && { input }) };
  }
  rejectUnknownFields(fields, ["approvalId", "reason"]);
  const approvalId = requireString(fields, "approvalId", { nonEmpty: true });
  const reason = optionalString(fields, "reason", { maxChars: 10_000 });
  return { type: "deny", approvalId, ...(reason !== undefined && { reason }) };
}

/**
 * Applies a command to a turn wherever it runs and answers `{ ok: true }`. A turn that cannot take it throws
 * its typed error (`ApprovalNotPendingError`, `TurnEndedError`, ...), which the handler's `onError` maps to
 * a status; bad steer input (`TypeError`, `RangeError`) is a 400.
 */
export async function applyControl(context: HandlerContext, turn: ServedTurn, command: TurnCommand): Promise<Response> {
  await withInputErrors(() => turn.control(command));
  return context.json(200, { ok: true });
}

/**
 * Resumes a suspended (or interrupted, resumable) turn of the session in this process and tracks it, so its
 * events can be followed and it can be approved, denied, canceled and steered like any live turn.
 */
export async function resumeServed(context: HandlerContext, sessionId: string, turnId: string): Promise<ServedTurn> {
  const session = await context.chat.openSession(sessionId);
  return context.track(await session.resume(turnId));
}

/**
 * Ends a suspended (or interrupted) turn of the session that no process runs (`session.cancel`): journaled
 * `canceled`, its checkpoint deleted. This process's copy of the suspended turn, kept for replay, goes too.
 */
export async function cancelParked(context: HandlerContext, sessionId: string, turnId: string): Promise<void> {
  const session = await context.chat.openSession(sessionId);
  await session.cancel(turnId);
  const kept = context.registry.get(turnId);
  if (kept?.suspended) context.registry.forget(kept);
}
