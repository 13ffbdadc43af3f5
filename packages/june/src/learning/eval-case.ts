import type { ModelMessage } from "ai";
import type { TurnFeedback } from "../chat/types.js";
import { EvalCaseFormatError } from "./errors.js";
import type { EvalCase, EvalCaseMetadata } from "./types.js";

/**
 * Checks that a value is an eval case and returns it as one: `id`, `input` and `reply` must be strings
 * (`id` non-empty), `messages` an array of messages with a `role` (missing: none), `feedback` an object
 * with a numeric `score` when present. A hand-written case may leave `metadata` out: it then reads
 * `{ sessionId: "", turnId: "", responder: { kind: "custom" }, at: "" }`. `EvalCaseFormatError` names
 * the field at fault (and the line, when given).
 */
export function toEvalCase(value: unknown, where: { line?: number; index?: number } = {}): EvalCase {
  const fail = (message: string): never => {
    const prefix = where.line === undefined && where.index !== undefined ? `case ${where.index}: ` : "";
    throw new EvalCaseFormatError(`${prefix}${message}`, { line: where.line });
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("an eval case must be a JSON object");
  const fields = value as Record<string, unknown>;
  const { id, input, reply, messages = [], feedback, metadata } = fields;
  if (typeof id !== "string" || id === "") return fail(`"id" must be a non-empty string`);
  if (typeof input !== "string") return fail(`"input" must be a string (case "${id}")`);
  if (typeof reply !== "string") return fail(`"reply" must be a string (case "${id}")`);
  if (!Array.isArray(messages)) return fail(`"messages" must be an array of messages (case "${id}")`);
  for (const [i, message] of messages.entries()) {
    if (typeof message !== "object" || message === null || typeof (message as { role?: unknown }).role !== "string") {
      fail(`"messages[${i}]" is not a message with a role (case "${id}")`);
    }
  }
  const evalCase: EvalCase = {
    id,
    input,
    messages: messages as ModelMessage[],
    reply,
    metadata: metadataOf(metadata, () => fail(`"metadata" must be an object (case "${id}")`)),
  };
  if (feedback !== undefined && feedback !== null) {
    const score = (feedback as { score?: unknown }).score;
    if (typeof feedback !== "object" || typeof score !== "number") return fail(`"feedback" must be { score, comment?, tags? } (case "${id}")`);
    evalCase.feedback = feedback as TurnFeedback;
  }
  return evalCase;
}

function metadataOf(value: unknown, fail: () => never): EvalCaseMetadata {
  if (value === undefined || value === null) return { sessionId: "", turnId: "", responder: { kind: "custom" }, at: "" };
  if (typeof value !== "object" || Array.isArray(value)) return fail();
  const metadata = value as Partial<EvalCaseMetadata>;
  return {
    ...metadata,
    sessionId: typeof metadata.sessionId === "string" ? metadata.sessionId : "",
    turnId: typeof metadata.turnId === "string" ? metadata.turnId : "",
    responder: typeof metadata.responder === "object" && metadata.responder !== null ? metadata.responder : { kind: "custom" },
    at: typeof metadata.at === "string" ? metadata.at : "",
  };
}
