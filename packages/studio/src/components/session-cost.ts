import { formatUsd } from "june-design-system";
import type { TurnRecord } from "../api/types";

/**
 * The open session's cost as the sidebar shows it: the sum of its turns' `metadata.cost` (the current branch's,
 * as `GET /sessions/:id` returns them), "cost unknown" when a turn that used tokens has no price (never a partial
 * sum), undefined when no turn used any.
 */
export function sessionCostLabel(turns: readonly Pick<TurnRecord, "metadata">[]): string | undefined {
  let usd = 0;
  let used = false;
  for (const { metadata } of turns) {
    if (!metadata) continue;
    const tokens = Object.values(metadata.usage ?? {}).some((n) => typeof n === "number" && n > 0);
    if (metadata.cost?.usd !== undefined) usd += metadata.cost.usd;
    else if (tokens) return "cost unknown";
    used ||= tokens || metadata.cost?.usd !== undefined;
  }
  return used ? formatUsd(usd) : undefined;
}
