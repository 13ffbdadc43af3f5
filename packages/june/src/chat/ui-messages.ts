import type { UIMessage } from "ai";
import { redactText } from "../redaction/redact.js";
import type { TurnRecord } from "./types.js";

/** The id of the user message `toUIMessages` makes for a turn's input. */
export function uiUserMessageId(turnId: string): string {
  return `${turnId}-user`;
}

/**
 * A session's turns as the AI SDK's `UIMessage[]`, what `useChat({ id, messages })` takes after a reload:
 * per turn, the user's message (its input as one text part, id `<turnId>-user`) and the assistant's (id the
 * turn's id, its reply as one text part, left out while a turn has no reply yet). Each assistant message
 * carries `metadata: { turnStatus }` (`completed`, `failed`, `canceled`, `interrupted` or `running`), and
 * `checkpointUnreadable` (why) on an unfinished durable turn whose checkpoint cannot be read.
 * Steers are not shown: a turn is one exchange. Replies are redacted as the HTTP handler redacts them.
 *
 * The journal keeps no tool inputs or outputs, so ended turns have text parts only; the handler's
 * `GET /sessions/:id/ui-messages` adds the tool parts (and their approval state) of a turn still running.
 *
 * @example
 * const messages = toUIMessages(await session.turns());
 */
export function toUIMessages(turns: readonly TurnRecord[]): UIMessage[] {
  const messages: UIMessage[] = [];
  for (const turn of turns) {
    messages.push({ id: uiUserMessageId(turn.id), role: "user", parts: [{ type: "text", text: turn.input }] });
    const text = turn.text === undefined ? "" : redactText(turn.text);
    if (text === "" && turn.status === "running") continue;
    messages.push({
      id: turn.id,
      role: "assistant",
      metadata: { turnStatus: turn.status, ...(turn.checkpointUnreadable !== undefined && { checkpointUnreadable: turn.checkpointUnreadable }) },
      parts: text === "" ? [] : [{ type: "text", text, state: "done" }],
    });
  }
  return messages;
}
