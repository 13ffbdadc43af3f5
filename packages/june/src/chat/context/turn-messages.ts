import type { ModelMessage } from "ai";
import type { TurnRecord } from "../types.js";
import { filePlaceholder } from "../files/session-files.js";
import { userMessage } from "../files/turn-input.js";

/**
 * A completed turn as model messages: its input (with its files, as file parts whose bytes the session reads
 * from the store before a responder sees them: `filePlaceholder`), then its reply. A steered turn puts each
 * steer back where it arrived: the reply up to the steer's `atChar`, the steer's input, the rest of the reply.
 *
 * @param leftOut ids of files to leave out (a context that had no room for them)
 */
export function turnMessages(record: TurnRecord, leftOut?: ReadonlySet<string>): ModelMessage[] {
  const text = record.text ?? "";
  const files = record.files === undefined ? NO_FILES : leftOut === undefined ? record.files : record.files.filter((file) => !leftOut.has(file.id));
  const messages: ModelMessage[] = [files.length === 0 ? { role: "user", content: record.input } : userMessage(record.input, files.map(filePlaceholder))];
  if (record.steers.length === 0) {
    messages.push({ role: "assistant", content: text });
    return messages;
  }
  let from = 0;
  for (const steer of record.steers) {
    const at = Math.min(Math.max(steer.atChar, from), text.length);
    if (at > from) messages.push({ role: "assistant", content: text.slice(from, at) });
    messages.push({ role: "user", content: steer.input });
    from = at;
  }
  // Always end on the assistant, even when the steer came after the last character.
  messages.push({ role: "assistant", content: text.slice(from) });
  return messages;
}

const NO_FILES: NonNullable<TurnRecord["files"]> = Object.freeze([]) as unknown as NonNullable<TurnRecord["files"]>;

/** A record's steers as they were at some point (a copy: the record's own list grows as steers arrive). */
export type SteersSnapshot = readonly { readonly input: string; readonly atChar: number }[];

const NO_STEERS: SteersSnapshot = Object.freeze([]);

/** A copy of `steers` to compare with `sameSteers` later (one shared empty list for the usual none). */
export function snapshotSteers(steers: TurnRecord["steers"]): SteersSnapshot {
  return steers.length === 0 ? NO_STEERS : steers.map((steer) => ({ input: steer.input, atChar: steer.atChar }));
}

/** True when `steers` are the same inputs at the same places as `seen`. */
export function sameSteers(seen: SteersSnapshot, steers: TurnRecord["steers"]): boolean {
  if (seen.length !== steers.length) return false;
  for (let i = 0; i < seen.length; i++) {
    if (seen[i]!.input !== steers[i]!.input || seen[i]!.atChar !== steers[i]!.atChar) return false;
  }
  return true;
}

/** True for the turns every built-in builder sends: completed ones (not failed, canceled, interrupted or running). */
export function isCompleted(record: TurnRecord): boolean {
  return record.status === "completed";
}

/** The text of a message: its string content, or its text parts joined. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  let text = "";
  for (const part of message.content) if ("text" in part && typeof part.text === "string") text += part.text;
  return text;
}
