import { redact } from "../redaction/redact.js";
import { EvalCaseFormatError } from "./errors.js";
import { toEvalCase } from "./eval-case.js";
import type { EvalCase } from "./types.js";

/** One case as a JSON line (no newline), credentials redacted, its fields always in the same order. */
export function toJSONLine(evalCase: EvalCase): string {
  const { id, input, messages, reply, feedback, metadata, ...rest } = evalCase;
  return JSON.stringify(redact({ id, input, messages, reply, ...(feedback !== undefined && { feedback }), metadata, ...rest }));
}

/**
 * Eval cases as JSON Lines, one case a line, each ending in a newline, with credentials redacted (the
 * same `redact` as trace rows, HTTP responses and `june sessions export`). Takes a list, or an async
 * iterable such as `dataset(chat)` (then returns a promise).
 *
 * @example
 * await writeFile("cases.jsonl", await toJSONL(dataset(chat, { filter: "up" })));
 */
export function toJSONL(cases: Iterable<EvalCase>): string;
export function toJSONL(cases: AsyncIterable<EvalCase>): Promise<string>;
export function toJSONL(cases: Iterable<EvalCase> | AsyncIterable<EvalCase>): string | Promise<string>;
export function toJSONL(cases: Iterable<EvalCase> | AsyncIterable<EvalCase>): string | Promise<string> {
  if (isAsyncIterable(cases)) {
    return (async () => {
      let text = "";
      for await (const evalCase of cases) text += `${toJSONLine(evalCase)}\n`;
      return text;
    })();
  }
  if (!isIterable(cases)) throw new TypeError("toJSONL(cases): cases must be an array or an (async) iterable of eval cases");
  let text = "";
  for (const evalCase of cases) text += `${toJSONLine(evalCase)}\n`;
  return text;
}

/**
 * Reads eval cases from JSON Lines (what `toJSONL` and `june dataset` write). Blank lines are skipped.
 * `EvalCaseFormatError` names the line of a line that is not JSON, not a case, or repeats an id.
 */
export function parseJSONL(text: string): EvalCase[] {
  if (typeof text !== "string") throw new TypeError("parseJSONL(text): text must be a string");
  const cases: EvalCase[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new EvalCaseFormatError(`not JSON: ${(error as Error).message}`, { line: i + 1, cause: error });
    }
    const evalCase = toEvalCase(value, { line: i + 1 });
    if (seen.has(evalCase.id)) throw new EvalCaseFormatError(`the id "${evalCase.id}" is used twice`, { line: i + 1 });
    seen.add(evalCase.id);
    cases.push(evalCase);
  }
  return cases;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as Iterable<unknown>)[Symbol.iterator] === "function";
}
