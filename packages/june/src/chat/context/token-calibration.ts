import type { TurnRecord } from "../types.js";
import { estimateTokens } from "../../cost/estimate-tokens.js";
import { contextTurnIds } from "./resolve-context.js";
import { isCompleted, messageText, turnMessages } from "./turn-messages.js";

/** How many of the latest turns with reported usage calibrate the estimate. */
const CALIBRATION_TURNS = 8;
/** The ratio is kept within these bounds: a turn of many tool calls re-sends its context, and inflates it. */
const MIN_RATIO = 0.5;
const MAX_RATIO = 3;

/**
 * How many tokens the provider counted per estimated token (one per four characters), from the latest completed
 * turns of `history` whose metadata has the `usage.inputTokens` the provider reported: their input tokens over the
 * estimate of what each sent (the earlier turns its context names, and its input). Undefined when no turn has
 * both. What a turn sends beside those (the system prompt, tool definitions, a tool's results, each further call
 * of the turn) is in its reported tokens and not in the estimate: the ratio takes it in, so it errs toward
 * sending fewer turns. Bounded to [0.5, 3].
 */
export function calibrationRatio(history: readonly TurnRecord[]): number | undefined {
  const byId = new Map(history.map((record) => [record.id, record] as const));
  const estimates = new Map<string, number>();
  const estimateOf = (record: TurnRecord): number => {
    let estimate = estimates.get(record.id);
    if (estimate === undefined) {
      estimate = 0;
      for (const message of turnMessages(record)) estimate += estimateTokens(messageText(message));
      estimates.set(record.id, estimate);
    }
    return estimate;
  };
  let reported = 0;
  let estimated = 0;
  let used = 0;
  for (let i = history.length - 1; i >= 0 && used < CALIBRATION_TURNS; i--) {
    const record = history[i]!;
    const inputTokens = record.metadata?.usage?.inputTokens;
    if (!isCompleted(record) || record.context === undefined || typeof inputTokens !== "number" || !(inputTokens > 0)) continue;
    let sent = estimateTokens(record.input);
    for (const id of contextTurnIds(record.context, history)) {
      const earlier = byId.get(id);
      if (earlier) sent += estimateOf(earlier);
    }
    if (sent === 0) continue;
    reported += inputTokens;
    estimated += sent;
    used++;
  }
  if (used === 0) return undefined;
  return Math.min(MAX_RATIO, Math.max(MIN_RATIO, reported / estimated));
}
