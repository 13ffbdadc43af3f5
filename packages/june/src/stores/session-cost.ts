import type { JournalEntry } from "./types.js";
import { addCost, type Cost, UNKNOWN_COST, ZERO_COST } from "../cost/price.js";

/**
 * What a session cost: the sum of its turns' `metadata.cost`, from its journal's `turn-end` entries (every
 * branch: a regenerated turn was paid for too). Unknown (`usd` undefined) when a turn that reported usage has
 * no cost (its model's price is not known): a partial sum is never shown as the total. A turn with no usage
 * (one that failed or was canceled before its model answered) adds nothing; a session of no such turns cost 0.
 */
export function sessionCost(entries: readonly JournalEntry[]): Cost {
  let total: Cost = ZERO_COST;
  for (const entry of entries) {
    if (entry.type !== "turn-end" || entry.metadata === undefined) continue;
    const { cost, usage } = entry.metadata;
    if (cost !== undefined) total = addCost(total, cost);
    else if (usage !== undefined && Object.values(usage).some((n) => typeof n === "number" && n > 0)) total = UNKNOWN_COST;
  }
  return total;
}
