import { formatUsd } from "june-design-system";
import type { SessionDetail } from "../api/types";

/**
 * The open session's cost as the sidebar shows it: the server's figure (`GET /sessions/:id`'s `cost`, every
 * branch), never a sum of its own. "cost unknown" when the server says its USD is unknown, undefined when the
 * session spent nothing (or the server sent no figure).
 */
export function sessionCostLabel(cost: SessionDetail["cost"]): string | undefined {
  if (cost === undefined) return undefined;
  if (cost.usd === undefined) return cost.tokens > 0 ? "cost unknown" : undefined;
  return cost.tokens > 0 || cost.usd > 0 ? formatUsd(cost.usd) : undefined;
}
