import type { ModelMessage } from "ai";
import type { ContextBuilder, ContextResult, TurnRecord } from "../types.js";
import { isCompleted, turnMessages } from "./turn-messages.js";

/**
 * The default context: every completed turn, oldest first: its input, its steer inputs and its reply.
 * Failed, canceled and interrupted turns are left out.
 *
 * @example
 * createChat({ responder, context: fullContext() });
 */
export function fullContext(): ContextBuilder {
  return function fullContextBuilder(history: TurnRecord[]): ContextResult {
    const messages: ModelMessage[] = [];
    const turnIds: string[] = [];
    for (const record of history) {
      if (!isCompleted(record)) continue;
      for (const message of turnMessages(record)) messages.push(message);
      turnIds.push(record.id);
    }
    return { name: "fullContext", messages, turnIds };
  };
}
