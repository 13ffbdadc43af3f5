import type { ModelMessage } from "ai";
import { ContextBuildError } from "../errors.js";
import type { TurnRecord } from "../types.js";
import { contextTurnIds } from "./resolve-context.js";
import { summaryMessage } from "./summarized-context.js";
import { turnMessages } from "./turn-messages.js";

export interface RebuildContextOptions {
  /**
   * The journal's summaries by `throughTurnId` (`summariesOf(entries)`). Without them a summary the turn
   * used is left out; with them a missing one is a `ContextBuildError`.
   */
  summaries?: ReadonlyMap<string, string>;
}

/**
 * The messages a turn was answered after, rebuilt from its context provenance: the summary it used, then
 * the earlier turns its context chose, rendered as the built-in builders render them (`turnMessages`).
 *
 * @param record the turn
 * @param history the turns of its branch (at least up to its parent), oldest first
 */
export function rebuildContext(record: TurnRecord, history: readonly TurnRecord[], options: RebuildContextOptions = {}): ModelMessage[] {
  const provenance = record.context;
  if (!provenance) return [];
  const messages: ModelMessage[] = [];
  if (provenance.summaryId !== undefined && options.summaries) {
    const text = options.summaries.get(provenance.summaryId);
    if (text === undefined) {
      throw new ContextBuildError(provenance.builder, `turn "${record.id}" used summary "${provenance.summaryId}", which is not in the journal`);
    }
    messages.push(summaryMessage(text));
  }
  const byId = new Map(history.map((turn) => [turn.id, turn]));
  const leftOut = provenance.filesLeftOut && provenance.filesLeftOut.length > 0 ? new Set(provenance.filesLeftOut) : undefined;
  for (const id of contextTurnIds(provenance, history)) {
    const earlier = byId.get(id);
    if (earlier) messages.push(...turnMessages(earlier, leftOut));
  }
  return messages;
}
