import { hideFilePaths, redactText, type TextRedactOptions } from "../../redaction/redact.js";
import { truncate } from "../../redaction/excerpt.js";
import type { ErrorInfo } from "./turn-stream-event.js";

/** Longest error message that leaves the process; longer ones end in `…`. */
export const MAX_ERROR_MESSAGE_CHARS = 1_000;

/** Options for `errorInfo`. */
export interface ErrorInfoOptions {
  /** Patterns of your own, masked after June's (see `redactText`). */
  redaction?: TextRedactOptions;
}

/**
 * A failure as June shows it anywhere outside the process (the stream's `turn-end`, `--json`, the UI
 * stream's `error`, the journal): its `name`, and its message with credentials and file paths masked, cut
 * at 1,000 characters. Never its stack or its `cause`, which may hold what the message does not say. An
 * error-like object (`{ name?, message }`) counts as an error; anything else is its `String()`.
 *
 * @example
 * errorInfo(new Error("bad key sk-live-0123456789abcdefghijklmn")) // { name: "Error", message: "bad key [redacted]" }
 */
export function errorInfo(error: unknown, options: ErrorInfoOptions = {}): ErrorInfo {
  const safe = (message: string) => truncate(hideFilePaths(redactText(message, options.redaction)), MAX_ERROR_MESSAGE_CHARS);
  if (error instanceof Error) return { name: nameOf(error.name), message: safe(String(error.message)) };
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    const like = error as { name?: unknown; message: string };
    return { name: nameOf(like.name), message: safe(like.message) };
  }
  return { name: "Error", message: safe(String(error)) };
}

/** A class name is code, not data: only a name that looks like one is kept. */
function nameOf(name: unknown): string {
  return typeof name === "string" && /^[\w$.:-]{1,100}$/.test(name) ? name : "Error";
}
