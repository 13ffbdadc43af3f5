import { redactText } from "../redaction/redact.js";
import type { TurnFeedback } from "./types.js";

/** The longest feedback comment, in characters. */
export const MAX_FEEDBACK_COMMENT_CHARS = 10_000;
/** The most tags one feedback may carry. */
export const MAX_FEEDBACK_TAGS = 32;
/** The longest tag, in characters. */
export const MAX_FEEDBACK_TAG_CHARS = 100;

const FIELDS = new Set(["score", "comment", "tags"]);

/**
 * Checks feedback and returns it as it is journaled: `score` is `1` (up), `-1` (down) or a number from 0
 * to 1; `comment` a string of at most 10,000 characters, redacted (credentials masked); `tags` at most 32
 * non-empty strings of at most 100 characters, redacted too. `TypeError` for a wrong type or an unknown
 * field, `RangeError` for a score out of range or a comment or tags too long, each naming the value.
 */
export function normalizeFeedback(feedback: unknown): TurnFeedback {
  if (typeof feedback !== "object" || feedback === null || Array.isArray(feedback)) {
    throw new TypeError(`session.feedback(turnId, feedback): feedback must be an object { score, comment?, tags? }, got ${showValue(feedback)}`);
  }
  const fields = feedback as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!FIELDS.has(key)) throw new TypeError(`session.feedback: unknown field "${key}" (expected score, comment, tags)`);
  }
  const { score, comment, tags } = fields;
  if (typeof score !== "number" || !Number.isFinite(score)) {
    throw new TypeError(`session.feedback: score must be 1 (up), -1 (down) or a number from 0 to 1, got ${showValue(score)}`);
  }
  if (score !== -1 && (score < 0 || score > 1)) {
    throw new RangeError(`session.feedback: score must be 1 (up), -1 (down) or a number from 0 to 1, got ${score}`);
  }
  const out: TurnFeedback = { score };
  if (comment !== undefined && comment !== null) {
    if (typeof comment !== "string") throw new TypeError(`session.feedback: comment must be a string, got ${showValue(comment)}`);
    if (comment.length > MAX_FEEDBACK_COMMENT_CHARS) {
      throw new RangeError(
        `session.feedback: comment is ${comment.length} characters, at most ${MAX_FEEDBACK_COMMENT_CHARS} are kept`,
      );
    }
    if (comment.trim() !== "") out.comment = redactText(comment);
  }
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags)) throw new TypeError(`session.feedback: tags must be an array of strings, got ${showValue(tags)}`);
    if (tags.length > MAX_FEEDBACK_TAGS) {
      throw new RangeError(`session.feedback: ${tags.length} tags, at most ${MAX_FEEDBACK_TAGS} are kept`);
    }
    const kept: string[] = [];
    for (const [i, tag] of tags.entries()) {
      if (typeof tag !== "string" || tag.trim() === "") {
        throw new TypeError(`session.feedback: tags[${i}] must be a non-empty string, got ${showValue(tag)}`);
      }
      if (tag.length > MAX_FEEDBACK_TAG_CHARS) {
        throw new RangeError(`session.feedback: tags[${i}] is ${tag.length} characters, at most ${MAX_FEEDBACK_TAG_CHARS}`);
      }
      const clean = redactText(tag.trim());
      if (!kept.includes(clean)) kept.push(clean);
    }
    if (kept.length > 0) out.tags = kept;
  }
  return out;
}

/** The value itself when short and harmless (a score, a tag), quoted when a string; else its `typeof`. */
function showValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return typeof value;
}
