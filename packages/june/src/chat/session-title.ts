import { redactText } from "../redaction/redact.js";
import { TITLE_MAX_CHARS } from "../stores/session-listing.js";

/**
 * A title as `session.rename` journals it: one line (whitespace collapsed), at most 80 characters (the
 * longest title a listing shows), credentials masked. `TypeError` for a value that is not a string or is
 * blank, `RangeError` for one too long, each naming what was wrong.
 */
export function normalizeTitle(title: unknown): string {
  if (typeof title !== "string") {
    throw new TypeError(`session.rename(title): title must be a string, got ${title === null ? "null" : typeof title}`);
  }
  const flat = title.replace(/\s+/g, " ").trim();
  if (flat === "") throw new TypeError("session.rename(title): title must not be blank");
  if (flat.length > TITLE_MAX_CHARS) {
    throw new RangeError(`session.rename(title): title is ${flat.length} characters, at most ${TITLE_MAX_CHARS} are kept`);
  }
  return redactText(flat);
}
