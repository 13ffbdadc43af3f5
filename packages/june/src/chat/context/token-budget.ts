import type { ModelMessage } from "ai";
import { markHistoryOnly } from "./history-only.js";
import type { ContextBuilder, ContextResult, TurnRecord } from "../types.js";
import { isCompleted, messageText, turnMessages } from "./turn-messages.js";

export interface TokenBudgetOptions {
  /** The most tokens the earlier turns may take. */
  maxTokens: number;
  /** Counts a text's tokens. The default estimates one token per four characters, rounded up. */
  count?: (text: string) => number;
}

/** Estimates tokens as one per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The newest completed turns whose messages fit in `maxTokens`, oldest first. It stops at the first
 * turn that does not fit, so the turns sent are always the most recent ones, without gaps. The budget
 * is for earlier turns only; the new input comes on top.
 *
 * @example
 * createChat({ responder, context: tokenBudget({ maxTokens: 8_000 }) });
 */
export function tokenBudget(options: TokenBudgetOptions): ContextBuilder {
  const { maxTokens, count = estimateTokens } = options ?? ({} as TokenBudgetOptions);
  if (typeof maxTokens !== "number" || !(maxTokens >= 0)) {
    throw new TypeError(`tokenBudget({ maxTokens }): maxTokens must be a number, 0 or more, got ${String(maxTokens)}`);
  }
  if (typeof count !== "function") throw new TypeError("tokenBudget({ count }): count must be a function of a text");
  return markHistoryOnly(function tokenBudgetBuilder(history: TurnRecord[]): ContextResult {
    const picked: ModelMessage[][] = [];
    const turnIds: string[] = [];
    let used = 0;
    for (let i = history.length - 1; i >= 0; i--) {
      const record = history[i]!;
      if (!isCompleted(record)) continue;
      const messages = turnMessages(record);
      let cost = 0;
      for (const message of messages) cost += count(messageText(message));
      if (used + cost > maxTokens) break;
      used += cost;
      picked.push(messages);
      turnIds.push(record.id);
    }
    picked.reverse();
    turnIds.reverse();
    return { name: "tokenBudget", messages: picked.flat(), turnIds };
  });
}
