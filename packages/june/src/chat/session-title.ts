import { redactText } from "../redaction/redact.js";
import { TITLE_MAX_CHARS } from "../stores/session-listing.js";

/** Control characters (NUL, ESC, DEL, C1): never kept in a title, where a terminal listing would act on them. */
const CONTROL = /\p{Cc}/gu;
/** What shows nothing on its own: spaces, format characters (zero-width, bidi controls, soft hyphen), marks. */
const INVISIBLE = /[\p{Z}\p{Cf}\p{M}\s]/gu;

/**
 * A title as `session.rename` journals it: one line (whitespace collapsed, control characters dropped), at
 * most 80 characters (the longest title a listing shows), credentials masked. `TypeError` for a value that
 * is not a string or is blank (nothing visible: only spaces, invisible or control characters), `RangeError`
 * for one too long, each naming what was wrong.
 */
export function normalizeTitle(title: unknown): string {
  if (typeof title !== "string") {
    throw new TypeError(`session.rename(title): title must be a string, got ${title === null ? "null" : typeof title}`);
  }
  const flat = title.replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  if (flat.replace(INVISIBLE, "") === "") throw new TypeError("session.rename(title): title must not be blank: it has no visible character");
  if (flat.length > TITLE_MAX_CHARS) {
    throw new RangeError(`session.rename(title): title is ${flat.length} characters, at most ${TITLE_MAX_CHARS} are kept`);
  }
  return redactText(flat);
}
