import type { ModelMessage } from "ai";
import { markHistoryOnly } from "./history-only.js";
import type { ContextBuilder, ContextResult, TurnRecord } from "../types.js";
import { isCompleted, turnMessages } from "./turn-messages.js";

/**
 * The last `n` completed turns, oldest first. Walks back from the newest turn, so a long session costs
 * no more than the turns it sends.
 *
 * @param n how many completed turns to send: a whole number, 0 or more.
 * @example
 * createChat({ responder, context: recentTurns(10) });
 */
export function recentTurns(n: number): ContextBuilder {
  if (!Number.isInteger(n) || n < 0) {
    throw new TypeError(`recentTurns(n): n must be a whole number of turns, 0 or more, got ${String(n)}`);
  }
  return markHistoryOnly(function recentTurnsBuilder(history: TurnRecord[]): ContextResult {
    const picked: TurnRecord[] = [];
    for (let i = history.length - 1; i >= 0 && picked.length < n; i--) {
      const record = history[i]!;
      if (isCompleted(record)) picked.push(record);
    }
    picked.reverse();
    const messages: ModelMessage[] = [];
    for (const record of picked) for (const message of turnMessages(record)) messages.push(message);
    return { name: "recentTurns", messages, turnIds: picked.map((record) => record.id) };
  });
}
