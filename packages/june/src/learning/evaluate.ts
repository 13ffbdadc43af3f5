import { ResponderContractError } from "../chat/errors.js";
import { errorInfo } from "../chat/stream/error-info.js";
import { responderProvenance, turnMetadata } from "../chat/turn-metadata.js";
import type { Chat, Responder, TurnEvent, ResponderExecution, ResponderResult } from "../chat/types.js";
import { CanceledError, TimeoutError } from "../runtime/errors.js";
import { addCost, checkPrices, UNKNOWN_COST, ZERO_COST, type Cost, type Prices } from "../cost/price.js";
import type { ResponderProvenance } from "../stores/types.js";
import { EvalCaseFormatError, ScorerError } from "./errors.js";
import { toEvalCase } from "./eval-case.js";
import { scorerStats } from "./scorer-stats.js";
import type { EvalCase, EvalCaseResult, EvalError, EvalReport, EvaluateOptions, Scorer } from "./types.js";

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_THRESHOLD = 0.5;
/** The session id every eval turn is answered in: eval turns belong to no session. */
export const EVAL_SESSION_ID = "eval";
const NO_ONE_TO_APPROVE = "no one to approve (eval)";

/**
 * Answers each case's `input` after its `messages` with the responder (a chat's, or the one given), then
 * scores each reply with every scorer. Runs `concurrency` cases at once (default 4). A case whose
 * responder fails, or whose scorer throws or scores outside 0 to 1, keeps the error and scores 0 there,
 * so the eval always finishes; only `signal` stops it (`CanceledError`). Tool calls that ask for approval
 * are denied unless `approvals: "approve"`. Nothing is journaled.
 *
 * @param target A `Chat` (its responder answers) or a `Responder`.
 * @param cases The cases: a list, or an async iterable such as `dataset(chat)`.
 * @param options `scorers` (a record by name, or a list named by each function's `name`), `concurrency`,
 * `threshold` (to count passes, default 0.5), `approvals`, `timeoutMs`, `signal`, `onResult`.
 * @example
 * const report = await evaluate(nextChat, parseJSONL(await readFile("cases.jsonl", "utf8")), {
 *   scorers: { exact: exactMatch(), judge: llmJudge({ model, rubric: "Polite and correct." }) },
 * });
 * console.log(report.stats.judge.mean);
 */
export async function evaluate(
  target: Chat | Responder,
  cases: Iterable<EvalCase> | AsyncIterable<EvalCase>,
  options: EvaluateOptions,
): Promise<EvalReport> {
  const responder = responderOf(target);
  if (typeof options !== "object" || options === null) throw new TypeError("evaluate(target, cases, options): options must be an object with `scorers`");
  const scorers = scorerList(options.scorers);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`evaluate({ concurrency }): must be a whole number, 1 or more, got ${String(concurrency)}`);
  }
  const thresholds = thresholdsOf(options.threshold, scorers);
  const approvals = options.approvals ?? "deny";
  if (approvals !== "deny" && approvals !== "approve") throw new TypeError(`evaluate({ approvals }): must be "deny" or "approve", got ${String(approvals)}`);
  const { timeoutMs, signal, onResult } = options;
  const prices = checkPrices(options.prices, "evaluate({ prices }):");
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
    throw new TypeError(`evaluate({ timeoutMs }): must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }

  const list = await collectCases(cases);
  const provenance = responderProvenance(responder);
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const results: EvalCaseResult[] = new Array(list.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (!signal?.aborted && next < list.length) {
      const index = next++;
      const result = await runCase({ responder, provenance, evalCase: list[index]!, index, scorers, approvals, timeoutMs, signal, prices });
      results[index] = result;
      done++;
      onResult?.(result, done, list.length);
    }
  };
  if (signal?.aborted) throw new CanceledError("The eval was canceled", { cause: signal.reason });
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  if (signal?.aborted) throw new CanceledError("The eval was canceled", { cause: signal.reason });

  return {
    responder: provenance,
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    cases: results,
    stats: scorerStats(results, scorers.map(([name]) => name), thresholds),
    failed: results.filter((result) => result.error !== undefined).length,
    cost: reportCost(results),
  };
}

interface RunCaseOptions {
  responder: Responder;
  provenance: ResponderProvenance;
  evalCase: EvalCase;
  index: number;
  scorers: [string, Scorer][];
  approvals: "deny" | "approve";
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  prices: Prices | undefined;
}

/** One case: the reply, then every score. Never throws: failures are kept in the result. */
async function runCase(options: RunCaseOptions): Promise<EvalCaseResult> {
  const { evalCase, scorers } = options;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const timeoutMs = options.timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(new TimeoutError(`Case "${evalCase.id}" took longer than ${timeoutMs} ms`, { timeout: timeoutMs })),
          timeoutMs,
        );
  const result: EvalCaseResult = { id: evalCase.id, input: evalCase.input, scores: {}, timeMs: 0 };
  const errors: EvalError[] = [];
  const started = performance.now();
  try {
    let answered: ResponderResult | undefined;
    try {
      answered = await answer(options, controller.signal);
    } catch (error) {
      errors.push(errorInfo(error));
      if (!controller.signal.aborted) controller.abort(error);
    }
    result.timeMs = Math.round(performance.now() - started);
    clearTimeout(timer);
    if (answered) {
      result.reply = answered.text;
      const metadata = turnMetadata(options.provenance, answered.metadata);
      if (metadata.usage) result.usage = metadata.usage;
      if (metadata.cost) result.cost = metadata.cost;
      if (metadata.model) result.model = metadata.model;
    }
    for (const [name, scorer] of scorers) {
      if (result.reply === undefined) {
        result.scores[name] = 0;
        continue;
      }
      try {
        result.scores[name] = checkScore(await scorer(evalCase, result.reply, { signal: controller.signal }), name, evalCase.id);
      } catch (error) {
        result.scores[name] = 0;
        errors.push({ ...errorInfo(error), scorer: name });
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
  }
  if (errors.length > 0) {
    result.error = errors[0];
    if (errors.length > 1) result.errors = errors;
  }
  return result;
}

/** Calls the responder as a turn would, reads its events (deciding approvals), and waits for its result. */
async function answer(options: RunCaseOptions, signal: AbortSignal): Promise<ResponderResult> {
  const { evalCase } = options;
  const execution: ResponderExecution = options.responder.respond({
    input: evalCase.input,
    messages: evalCase.messages.slice(),
    signal,
    sessionId: EVAL_SESSION_ID,
    turnId: `eval-${options.index + 1}`,
    ...(options.prices ? { prices: options.prices } : {}),
  });
  if (typeof execution !== "object" || execution === null || typeof (execution.result as PromiseLike<unknown> | undefined)?.then !== "function") {
    throw new ResponderContractError("respond() must return an execution with a `result` promise");
  }
  const result = Promise.resolve(execution.result);
  result.catch(() => {});
  const iterator = execution.events?.[Symbol.asyncIterator]();
  const decide = (event: TurnEvent) => {
    if (event?.type !== "approval-request") return;
    execution.decide?.(event.request.id, options.approvals === "approve" ? { approved: true } : { approved: false, reason: NO_ONE_TO_APPROVE });
  };
  const reading = (async () => {
    if (!iterator) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      decide(next.value);
    }
  })();
  reading.catch(() => {});
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  try {
    const [value] = await Promise.race([Promise.all([result, reading]), aborted]);
    if (typeof value !== "object" || value === null || typeof value.text !== "string") {
      throw new ResponderContractError("The responder's result must be an object with a string `text`");
    }
    return value;
  } catch (error) {
    // Stop a stream no one reads any more; do not wait for a responder that ignores it.
    if (iterator?.return) void Promise.resolve().then(() => iterator.return!()).catch(() => {});
    throw error;
  }
}

function checkScore(value: unknown, scorer: string, caseId: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    const shown = typeof value === "number" ? String(value) : typeof value === "string" ? JSON.stringify(value) : typeof value;
    throw new ScorerError(`Scorer "${scorer}" gave ${shown} for case "${caseId}": a score must be a number from 0 to 1`, { scorer, caseId });
  }
  return value;
}

function responderOf(target: Chat | Responder): Responder {
  if (typeof target === "object" && target !== null) {
    const responder = "respond" in target && typeof target.respond === "function" ? target : (target as Chat).responder;
    if (typeof responder === "object" && responder !== null && typeof responder.respond === "function") return responder;
  }
  throw new TypeError("evaluate(target, cases, options): target must be a Chat or a Responder (an object with respond())");
}

/** Scorers by name: a record's keys, or each listed function's `name` (made unique with `#2`, `#3`, ...). */
function scorerList(scorers: EvaluateOptions["scorers"]): [string, Scorer][] {
  let list: [string, Scorer][];
  if (Array.isArray(scorers)) {
    const counts = new Map<string, number>();
    list = scorers.map((scorer, i) => {
      const base = typeof scorer === "function" && scorer.name ? scorer.name : `scorer${i + 1}`;
      const n = (counts.get(base) ?? 0) + 1;
      counts.set(base, n);
      return [n === 1 ? base : `${base}#${n}`, scorer];
    });
  } else if (typeof scorers === "object" && scorers !== null) {
    list = Object.entries(scorers);
  } else {
    throw new TypeError("evaluate({ scorers }): scorers must be a record of scorers by name, or a list of scorers");
  }
  if (list.length === 0) throw new TypeError("evaluate({ scorers }): give at least one scorer (exactMatch(), includes(), llmJudge(...), ...)");
  for (const [name, scorer] of list) {
    if (typeof scorer !== "function") throw new TypeError(`evaluate({ scorers }): scorer "${name}" is not a function of (case, reply)`);
  }
  return list;
}

function thresholdsOf(threshold: EvaluateOptions["threshold"], scorers: [string, Scorer][]): Record<string, number> {
  const check = (value: unknown, what: string): number => {
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
      throw new TypeError(`evaluate({ threshold }): ${what} must be a number from 0 to 1, got ${String(value)}`);
    }
    return value;
  };
  const out: Record<string, number> = {};
  for (const [name] of scorers) {
    if (threshold === undefined) out[name] = DEFAULT_THRESHOLD;
    else if (typeof threshold === "number") out[name] = check(threshold, "threshold");
    else if (typeof threshold === "object" && threshold !== null) {
      out[name] = threshold[name] === undefined ? DEFAULT_THRESHOLD : check(threshold[name], `threshold.${name}`);
    } else check(threshold, "threshold");
  }
  return out;
}

async function collectCases(cases: Iterable<EvalCase> | AsyncIterable<EvalCase>): Promise<EvalCase[]> {
  if (typeof cases !== "object" || cases === null || !(Symbol.asyncIterator in cases || Symbol.iterator in cases)) {
    throw new TypeError("evaluate(target, cases, options): cases must be a list or an (async) iterable of eval cases");
  }
  const list: EvalCase[] = [];
  const seen = new Set<string>();
  for await (const value of cases as AsyncIterable<EvalCase>) {
    const evalCase = toEvalCase(value, { index: list.length });
    if (seen.has(evalCase.id)) throw new EvalCaseFormatError(`case ${list.length}: the id "${evalCase.id}" is used twice`);
    seen.add(evalCase.id);
    list.push(evalCase);
  }
  return list;
}

/** The replies' costs added up: unknown when a case that answered has no cost (its model's price was not known). */
function reportCost(results: readonly EvalCaseResult[]): Cost {
  let total: Cost = ZERO_COST;
  for (const result of results) {
    if (result.reply === undefined && result.usage === undefined) continue;
    total = addCost(total, result.cost ?? UNKNOWN_COST);
  }
  return total;
}
