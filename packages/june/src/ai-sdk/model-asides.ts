import type { TextStreamPart, ToolSet } from "ai";

/**
 * A source the model cited for its reply (a web-search result, a document): a link (`url`) or a document
 * (`mediaType`, `filename`). What the AI SDK's `source` part and `useChat`'s `source-url`/`source-document`
 * parts hold, without the provider's own metadata.
 */
export type ReplySource =
  | { sourceType: "url"; id: string; url: string; title?: string }
  | { sourceType: "document"; id: string; mediaType: string; title: string; filename?: string };

/**
 * What a model sends beside its reply's text, in the order it sends it: its reasoning (a part started, its
 * deltas, its end: Claude's thinking, OpenAI's reasoning summaries, DeepSeek R1's `<think>`) and the sources it
 * cites. `id` names one reasoning part within its model call.
 */
export type ModelAside =
  | { type: "reasoning-start"; id: string }
  | { type: "reasoning-delta"; id: string; text: string }
  | { type: "reasoning-end"; id: string }
  | { type: "source"; source: ReplySource };

/**
 * The aside a `streamText` part is, or undefined for any other part. AI SDK 6's reasoning delta carries
 * `text`; the part is read by either name (`delta` too), so both lines read it here and nowhere else.
 */
export function modelAside(part: TextStreamPart<ToolSet>): ModelAside | undefined {
  switch (part.type) {
    case "reasoning-start":
    case "reasoning-end":
      return { type: part.type, id: String(part.id) };
    case "reasoning-delta": {
      const fields = part as { text?: unknown; delta?: unknown };
      const text = typeof fields.text === "string" ? fields.text : typeof fields.delta === "string" ? fields.delta : "";
      return text === "" ? undefined : { type: "reasoning-delta", id: String(part.id), text };
    }
    case "source": {
      const source = replySource(part);
      return source ? { type: "source", source } : undefined;
    }
    default:
      return undefined;
  }
}

/** A source part as June keeps it (only its known fields, never the provider's metadata); undefined when malformed. */
export function replySource(value: unknown): ReplySource | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const part = value as Record<string, unknown>;
  const id = typeof part.id === "string" ? part.id : undefined;
  const title = typeof part.title === "string" && part.title !== "" ? part.title : undefined;
  if (id === undefined) return undefined;
  if (part.sourceType === "url" && typeof part.url === "string") return { sourceType: "url", id, url: part.url, ...(title !== undefined && { title }) };
  if (part.sourceType === "document" && typeof part.mediaType === "string") {
    return { sourceType: "document", id, mediaType: part.mediaType, title: title ?? (typeof part.filename === "string" ? part.filename : id), ...(typeof part.filename === "string" && { filename: part.filename }) };
  }
  return undefined;
}
