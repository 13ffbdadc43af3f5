import type { ModelMessage } from "ai";
import { redactText } from "../redaction/redact.js";
import { excerpt, truncate } from "../redaction/excerpt.js";
import type { TraceMessage } from "./types.js";

/**
 * How much of a model call's messages the trace keeps: the system prompt and the last few messages, each cut
 * to a few hundred characters. A trace is kept for every call of every turn a handler serves, so it holds
 * excerpts to look at, never the history itself.
 */
export const EXCERPT_MESSAGES = 4;
export const EXCERPT_CHARS = 300;
/** Longest tool input or output inside an excerpt. */
const PART_CHARS = 160;

/** A prompt as the trace keeps it: the system prompt, then the last messages, and how many were left out. */
export interface PromptExcerpt {
  prompt: TraceMessage[];
  omitted: number;
}

/** The system prompt and the last `EXCERPT_MESSAGES` messages of a call, each a bounded, redacted excerpt. */
export function promptExcerpt(system: string | undefined, messages: readonly ModelMessage[]): PromptExcerpt {
  const last = responseExcerpt(messages);
  const prompt = system ? [{ role: "system", text: excerptText(system) } as TraceMessage, ...last] : last;
  return { prompt, omitted: Math.max(0, messages.length - EXCERPT_MESSAGES) };
}

/**
 * The last `EXCERPT_MESSAGES` of `messages` as bounded excerpts: a call's response messages (its text and tool
 * calls, the tools the AI SDK ran), and the tail of its prompt.
 */
export function responseExcerpt(messages: readonly ModelMessage[]): TraceMessage[] {
  const from = Math.max(0, messages.length - EXCERPT_MESSAGES);
  const out: TraceMessage[] = [];
  for (let i = from; i < messages.length; i++) out.push(messageExcerpt(messages[i]!));
  return out;
}

/**
 * Excerpts of frozen text messages, made once while they are recent: a chat's context hands the same frozen
 * messages to every turn (fullContext, recentTurns), and each call's prompt excerpt shows the last few of them
 * again, a turn or two later. Only the last `RECENT_EXCERPTS` messages excerpted keep theirs: a session's
 * journal keeps its messages for as long as it lives, and an excerpt of each would live as long (about 0.6 KB
 * a turn of an open session, kept for no one once its turn's trace is gone).
 */
export const RECENT_EXCERPTS = 256;
const textExcerpts = new WeakMap<ModelMessage, TraceMessage>();
/** The messages `textExcerpts` holds an excerpt of, oldest first from `nextSlot` (weakly: they go with their session). */
const excerptOrder: (WeakRef<ModelMessage> | undefined)[] = new Array<WeakRef<ModelMessage> | undefined>(RECENT_EXCERPTS).fill(undefined);
let nextSlot = 0;

function rememberExcerpt(message: ModelMessage, made: TraceMessage): void {
  const oldest = excerptOrder[nextSlot]?.deref();
  if (oldest !== undefined) textExcerpts.delete(oldest);
  excerptOrder[nextSlot] = new WeakRef(message);
  nextSlot = (nextSlot + 1) % RECENT_EXCERPTS;
  textExcerpts.set(message, made);
}

/** One message: its role and its content as text (tool calls as `name(input)`, results as `name → output`). */
export function messageExcerpt(message: ModelMessage): TraceMessage {
  const content = message.content as unknown;
  if (typeof content === "string") {
    // A frozen message with string content can never say anything else: its excerpt is shared.
    if (!Object.isFrozen(message)) return { role: message.role, text: excerptText(content) };
    let made = textExcerpts.get(message);
    if (made === undefined) {
      made = Object.freeze({ role: message.role, text: excerptText(content) });
      rememberExcerpt(message, made);
    }
    return made;
  }
  const pieces: string[] = [];
  let length = 0;
  for (const part of Array.isArray(content) ? (content as { type?: unknown }[]) : []) {
    // Only as much as the excerpt can show is ever looked at.
    if (length > EXCERPT_CHARS) break;
    const piece = partText(part);
    if (piece === "") continue;
    pieces.push(piece);
    length += piece.length + 1;
  }
  return { role: message.role, text: excerptText(pieces.join("\n")) };
}

/** Text cut to `EXCERPT_CHARS`, redacted first (so a key at the cut is still caught), in a string of its own. */
export function excerptText(text: string, maxChars = EXCERPT_CHARS): string {
  // A little past the cut, so a credential that straddles it still matches a pattern.
  const head = text.length > maxChars + 64 ? text.slice(0, maxChars + 64) : text;
  const cut = truncate(redactText(head), maxChars);
  // A copy when it is a piece of the text: a slice of a long message would otherwise keep the whole message
  // alive for as long as the trace. The text itself, unchanged, is kept as it is.
  return cut === text ? text : detach(cut);
}

function partText(part: { type?: unknown } & Record<string, unknown>): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return typeof part.text === "string" ? (part.type === "reasoning" ? `[reasoning] ${part.text}` : part.text) : "";
    case "image":
      return "[image]";
    case "file":
      return typeof part.mediaType === "string" ? `[file ${part.mediaType}]` : "[file]";
    case "tool-call":
      return `${String(part.toolName)}(${excerpt(part.input, PART_CHARS)})`;
    case "tool-result": {
      const output = part.output as { type?: string; value?: unknown } | undefined;
      const value = output && typeof output === "object" && "value" in output ? output.value : output;
      return `${String(part.toolName)} → ${excerpt(value, PART_CHARS)}`;
    }
    case "tool-approval-request":
      return "[approval requested]";
    case "tool-approval-response":
      return part.approved === true ? "[approved]" : "[denied]";
    default:
      return "";
  }
}

/**
 * A copy of a (short) string that shares no memory with the string it came from. V8 flattens a concatenation
 * into a fresh string before slicing it, so the slice points into that copy, never into `text`'s parent (tested
 * in message-excerpt.test.ts: excerpts of large texts keep none of them alive); a third of the time of the JSON
 * round trip it replaces.
 */
function detach(text: string): string {
  return text.length === 0 ? text : (" " + text).slice(1);
}
