import type { UIMessage } from "ai";
import { redactText } from "../redaction/redact.js";
import type { FileRef } from "../stores/types.js";
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
 * The files a turn sent (`turn.files`) are `file` parts of its user message, before its text as `useChat`
 * sends them (a message of files alone has no text part), when `fileUrl` says where each is served; the bytes never go in a message
 * (the handler's `/ui-messages` points at its own `GET /sessions/:id/files/:fileId`). Without `fileUrl`, a
 * turn's files are left out.
 *
 * @param options.fileUrl The URL a `file` part points at, for each file of a turn.
 * @example
 * const messages = toUIMessages(await session.turns());
 */
export function toUIMessages(turns: readonly TurnRecord[], options: { fileUrl?: (file: FileRef, turn: TurnRecord) => string } = {}): UIMessage[] {
  const messages: UIMessage[] = [];
  for (const turn of turns) {
    const files: UIMessage["parts"] =
      options.fileUrl === undefined
        ? []
        : (turn.files ?? []).map((file) => ({
            type: "file",
            mediaType: file.mediaType,
            ...(file.filename !== undefined && { filename: file.filename }),
            url: options.fileUrl!(file, turn),
          }));
    const text: UIMessage["parts"] = turn.input === "" && files.length > 0 ? [] : [{ type: "text", text: turn.input }];
    // Files before the text, as `useChat`'s `sendMessage({ text, files })` builds the message.
    messages.push({ id: uiUserMessageId(turn.id), role: "user", parts: [...files, ...text] });
    const reply = turn.text === undefined ? "" : redactText(turn.text);
    if (reply === "" && turn.status === "running") continue;
    messages.push({
      id: turn.id,
      role: "assistant",
      metadata: { turnStatus: turn.status, ...(turn.checkpointUnreadable !== undefined && { checkpointUnreadable: turn.checkpointUnreadable }) },
      parts: reply === "" ? [] : [{ type: "text", text: reply, state: "done" }],
    });
  }
  return messages;
}
