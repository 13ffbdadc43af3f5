import type { JournalEntry, TurnMetadata } from "./types.js";
import type { Spent } from "../cost/budget.js";

/** The fold's whole answer: the cost, and the USD of the turns whose price is known (what a `usd` budget is judged on). */
export interface SessionSpend extends Spent {
  readonly pricedUsd: number;
}

/**
 * The one session-cost fold. The rule: what was spent, on every branch (a regenerated turn was paid for too),
 * by every turn however it ended (completed, failed, blocked, canceled: a turn records what its model calls
 * spent), unknown staying unknown (a turn that spent tokens without a known cost makes `usd` unknown). A turn
 * that spent nothing adds nothing; a session of such turns cost 0.
 */
export function sessionSpend(turns: Iterable<{ readonly metadata?: TurnMetadata | undefined }>): SessionSpend {
  let tokens = 0;
  let pricedUsd = 0;
  let known = true;
  for (const { metadata } of turns) {
    if (metadata === undefined) continue;
    const used = tokensOf(metadata.usage);
    tokens += used;
    const usd = metadata.cost?.usd;
    if (typeof usd === "number" && Number.isFinite(usd)) pricedUsd += usd;
    else if (used > 0) known = false;
  }
  return known ? { tokens, usd: pricedUsd, pricedUsd } : { tokens, pricedUsd };
}

/** `sessionSpend` as surfaces show it: `{ tokens, usd? }`. */
export function sessionCost(turns: Iterable<{ readonly metadata?: TurnMetadata | undefined }>): Spent {
  const { tokens, usd } = sessionSpend(turns);
  return usd === undefined ? { tokens } : { tokens, usd };
}

/** A journal's turns as the fold reads them: each turn's last `turn-end` (what its record holds). */
export function endedTurns(entries: readonly JournalEntry[]): Iterable<{ metadata?: TurnMetadata }> {
  const ends = new Map<string, { metadata?: TurnMetadata }>();
  for (const entry of entries) if (entry.type === "turn-end") ends.set(entry.turnId, entry);
  return ends.values();
}

/** A turn's tokens: its total, else input + output (each a finite count, 0 or more). */
function tokensOf(usage: TurnMetadata["usage"]): number {
  if (usage === undefined) return 0;
  const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
  const total = count(usage.totalTokens);
  return total > 0 ? total : count(usage.inputTokens) + count(usage.outputTokens);
}
