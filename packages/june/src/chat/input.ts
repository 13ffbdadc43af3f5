import { InputTooLargeError } from "./errors.js";

/** The default `maxInputChars` of a chat: one million characters. */
export const DEFAULT_MAX_INPUT_CHARS = 1_000_000;

/**
 * Checks a turn's (or a steer's) input: a non-empty string (`TypeError` otherwise) of at most
 * `maxInputChars` characters (`InputTooLargeError` otherwise).
 */
export function validateInput(input: unknown, maxInputChars: number, what = "input"): asserts input is string {
  if (typeof input !== "string") {
    throw new TypeError(`${what} must be a string, got ${input === null ? "null" : typeof input}`);
  }
  if (input.length === 0) throw new TypeError(`${what} must not be empty`);
  if (input.length > maxInputChars) throw new InputTooLargeError(input.length, maxInputChars);
}
