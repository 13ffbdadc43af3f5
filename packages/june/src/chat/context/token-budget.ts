import type { LanguageModel, ModelMessage } from "ai";
import { catalogEntry } from "../../cost/catalog.js";
import { modelInfo } from "../../runtime/usage.js";
import { markHistoryOnly } from "./history-only.js";
import type { ContextBuilder, ContextOptions, ContextResult, TurnRecord } from "../types.js";
import type { FileRef } from "../../stores/types.js";
import { estimateTokens } from "../../cost/estimate-tokens.js";
import { calibrationRatio } from "./token-calibration.js";
import { tokenCounter } from "../../cost/token-counter.js";
import { isCompleted, messageText, turnMessages } from "./turn-messages.js";

export { estimateTokens } from "../../cost/estimate-tokens.js";

export interface TokenBudgetOptions {
  /**
   * The most tokens the earlier turns may take. Required without `model`; with it, the default is three
   * quarters of the model's context window in the catalog, less the new input (the rest is left for the system
   * prompt, tools and the answer), and no limit when the catalog does not know the model.
   */
  maxTokens?: number;
  /**
   * Counts a text's tokens. The default estimates one token per four characters, rounded up; with `model`, it
   * is `tokenCounter(model)` for a model with a known tokenizer, else that estimate calibrated by the input
   * tokens the provider reported for the session's earlier turns.
   */
  count?: (text: string) => number;
  /** The chat's model: for its context window and its token counts (see `maxTokens` and `count`). */
  model?: LanguageModel;
}

/** Three quarters of a context window go to the earlier turns and the new input. */
const WINDOW_SHARE = 0.75;

/**
 * The newest completed turns whose messages fit in `maxTokens`, oldest first. It stops at the first
 * turn that does not fit, so the turns sent are always the most recent ones, without gaps. The budget
 * is for earlier turns only; the new input comes on top.
 *
 * @example
 * createChat({ responder, context: tokenBudget({ maxTokens: 8_000 }) });
 */
export function tokenBudget(options: TokenBudgetOptions): ContextBuilder {
  const { maxTokens, count, model } = options ?? ({} as TokenBudgetOptions);
  if (model === undefined || maxTokens !== undefined) {
    if (typeof maxTokens !== "number" || !(maxTokens >= 0)) {
      throw new TypeError(`tokenBudget({ maxTokens }): maxTokens must be a number, 0 or more, got ${String(maxTokens)}`);
    }
  }
  if (count !== undefined && typeof count !== "function") throw new TypeError("tokenBudget({ count }): count must be a function of a text");
  if (model === undefined) {
    const fixed = count ?? estimateTokens;
    return markHistoryOnly(function tokenBudgetBuilder(history: TurnRecord[]): ContextResult {
      return pick(history, maxTokens!, fixed);
    });
  }
  if (typeof model !== "string" && (typeof model !== "object" || model === null || typeof model.modelId !== "string")) {
    throw new TypeError("tokenBudget({ model }): model must be a language model or a model id");
  }
  const own = count ?? tokenCounter(model);
  const calibrate = count === undefined && own === estimateTokens;
  // The catalog's provider file, imported on the first turn only when no maxTokens is given (never statically).
  let window: Promise<number | undefined> | undefined;
  return markHistoryOnly(async function tokenBudgetBuilder(history: TurnRecord[], context: ContextOptions): Promise<ContextResult> {
    const counter = calibrate ? calibratedCount(history) : own;
    let limit = maxTokens;
    if (limit === undefined) {
      window ??= catalogEntry(modelInfo(model)).then((entry) => entry?.contextWindow, () => undefined);
      const size = await window;
      limit = size === undefined ? Infinity : Math.max(0, Math.floor(size * WINDOW_SHARE) - counter(context?.input ?? ""));
    }
    return pick(history, limit, counter);
  });
}

/** The four-characters estimate times the session's `calibrationRatio` (the estimate itself before any usage). */
function calibratedCount(history: readonly TurnRecord[]): (text: string) => number {
  const ratio = calibrationRatio(history);
  if (ratio === undefined) return estimateTokens;
  return (text) => Math.ceil(estimateTokens(text) * ratio);
}

/**
 * The newest completed turns of `history` that fit in `maxTokens` by `count` (their files by
 * `estimateFileTokens`), oldest first. A turn that fits only without its files is sent without them, and the
 * files left out are named in the result (`filesLeftOut`, journaled in the turn's provenance).
 */
function pick(history: TurnRecord[], maxTokens: number, count: (text: string) => number): ContextResult {
  const picked: ModelMessage[][] = [];
  const turnIds: string[] = [];
  const filesLeftOut: string[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (!isCompleted(record)) continue;
    let messages = turnMessages(record);
    let cost = 0;
    for (const message of messages) cost += count(messageText(message));
    let files = 0;
    for (const file of record.files ?? []) files += estimateFileTokens(file);
    if (used + cost + files > maxTokens) {
      if (files === 0 || used + cost > maxTokens) break;
      const ids = record.files!.map((file) => file.id);
      messages = turnMessages(record, new Set(ids));
      filesLeftOut.unshift(...ids);
      files = 0;
    }
    used += cost + files;
    picked.push(messages);
    turnIds.push(record.id);
  }
  picked.reverse();
  turnIds.reverse();
  return { name: "tokenBudget", messages: picked.flat(), turnIds, ...(filesLeftOut.length > 0 ? { filesLeftOut } : {}) };
}

/**
 * Estimates a file's tokens in a prompt: an image as 1,600 (about what the largest image a provider takes
 * unscaled costs), anything else (a PDF, text) as one token per four bytes, rounded up.
 */
function estimateFileTokens(file: FileRef): number {
  return file.mediaType.startsWith("image/") ? 1_600 : Math.ceil(file.size / 4);
}
