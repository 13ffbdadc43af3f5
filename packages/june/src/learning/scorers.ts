import { isDeepStrictEqual } from "node:util";
import type { EvalCase, Scorer } from "./types.js";

/** What a scorer compares with: a fixed value, or one taken from the case. Default: the case's recorded `reply`. */
export type Expected<T> = T | ((evalCase: EvalCase) => T);

export interface ExactMatchOptions {
  /** Default: the case's recorded `reply`. */
  expected?: Expected<string>;
  /** Trim whitespace at both ends first (default true). */
  trim?: boolean;
  /** Compare regardless of case (default false). */
  ignoreCase?: boolean;
}

/**
 * 1 when the reply equals the expected text (by default the case's recorded reply, both trimmed), else 0.
 *
 * @example
 * await evaluate(chat, cases, { scorers: [exactMatch({ ignoreCase: true })] });
 */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  const { trim = true, ignoreCase = false } = options;
  const normalize = (text: string) => {
    const trimmed = trim ? text.trim() : text;
    return ignoreCase ? trimmed.toLowerCase() : trimmed;
  };
  return named("exactMatch", (evalCase, reply) => (normalize(reply) === normalize(expectedOf(options.expected, evalCase)) ? 1 : 0));
}

export interface IncludesOptions {
  /** Compare regardless of case (default false). */
  ignoreCase?: boolean;
}

/**
 * The share of the expected pieces the reply contains: 1 when it contains them all. `expected` is a
 * text or a list of texts (default: the case's recorded reply, trimmed).
 *
 * @example
 * includes(["refund", "within 30 days"]) // 0.5 for a reply that mentions only the refund
 */
export function includes(expected?: Expected<string | string[]>, options: IncludesOptions = {}): Scorer {
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  return named("includes", (evalCase, reply) => {
    const wanted = expected === undefined ? evalCase.reply.trim() : expectedOf(expected, evalCase);
    const pieces = (Array.isArray(wanted) ? wanted : [wanted]).filter((piece) => piece !== "");
    if (pieces.length === 0) return 1;
    const haystack = fold(reply);
    return pieces.filter((piece) => haystack.includes(fold(piece))).length / pieces.length;
  });
}

/**
 * 1 when the reply matches the pattern, else 0. A string pattern may be written `/source/flags`.
 *
 * @example
 * regex(/^\d{4}-\d{2}-\d{2}$/)
 */
export function regex(pattern: RegExp | string): Scorer {
  const compiled = toRegExp(pattern);
  return named("regex", (_evalCase, reply) => {
    compiled.lastIndex = 0;
    return compiled.test(reply) ? 1 : 0;
  });
}

export interface JsonMatchOptions {
  /** The expected value. Default: the case's recorded reply, parsed as JSON. */
  expected?: Expected<unknown>;
}

/**
 * Parses the reply as JSON (a fenced ```json block is unwrapped) and compares it with the expected value:
 * 1 when they are deeply equal; for two objects, the share of the expected object's fields whose values
 * are equal; 0 for a reply that is not JSON. A recorded reply that is not JSON is an error (there is
 * nothing to compare with).
 */
export function jsonMatch(options: JsonMatchOptions = {}): Scorer {
  return named("jsonMatch", (evalCase, reply) => {
    let expected: unknown;
    if (options.expected === undefined) {
      const parsed = parseJson(evalCase.reply);
      if (!parsed.ok) throw new TypeError(`jsonMatch: the case's recorded reply is not JSON, so there is nothing to compare with`);
      expected = parsed.value;
    } else {
      expected = expectedOf(options.expected, evalCase);
    }
    const actual = parseJson(reply);
    if (!actual.ok) return 0;
    if (isDeepStrictEqual(actual.value, expected)) return 1;
    if (!isPlainObject(expected) || !isPlainObject(actual.value)) return 0;
    const keys = Object.keys(expected);
    if (keys.length === 0) return 0;
    const got = actual.value;
    return keys.filter((key) => key in got && isDeepStrictEqual(got[key], expected[key])).length / keys.length;
  });
}

/** Gives a scorer a `name`, so a list of scorers is named in the report. */
export function named(name: string, scorer: Scorer): Scorer {
  Object.defineProperty(scorer, "name", { value: name, configurable: true });
  return scorer;
}

function expectedOf<T>(expected: Expected<T> | undefined, evalCase: EvalCase): T {
  if (expected === undefined) return evalCase.reply as T;
  return typeof expected === "function" ? (expected as (evalCase: EvalCase) => T)(evalCase) : expected;
}

/** `/source/flags` or a plain source. */
export function toRegExp(pattern: RegExp | string): RegExp {
  if (pattern instanceof RegExp) return pattern;
  if (typeof pattern !== "string") throw new TypeError(`regex(pattern): pattern must be a RegExp or a string, got ${typeof pattern}`);
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  try {
    return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(pattern);
  } catch (error) {
    throw new TypeError(`regex(pattern): ${(error as Error).message}`, { cause: error });
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
