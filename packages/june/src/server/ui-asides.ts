import type { UIMessageChunk } from "ai";
import type { ReasoningDeltaStreamEvent, ReasoningEndStreamEvent, ReasoningStartStreamEvent, SourceStreamEvent } from "../chat/stream/turn-stream-event.js";
import type { UiChatOptions } from "./handler-context.js";

/** What `/ui-chat` sends beside the reply's text (`uiChat: { sendReasoning, sendSources }`, both on by default). */
export interface UiSend {
  reasoning: boolean;
  sources: boolean;
}

/** The `uiChat` options' switches, defaults applied. */
export function uiSend(options: UiChatOptions): UiSend {
  return { reasoning: options.sendReasoning ?? true, sources: options.sendSources ?? true };
}

type AsideStreamEvent = ReasoningStartStreamEvent | ReasoningDeltaStreamEvent | ReasoningEndStreamEvent | SourceStreamEvent;

/**
 * Encodes the model's reasoning and sources as the AI SDK's own chunks: `reasoning-start`, `-delta`, `-end`
 * (ids of their own in the message: the first event's index, as text parts have) and `source-url` or
 * `source-document`. Only encodes: the events are redacted already.
 */
export class UiAsides {
  readonly #write: (chunk: UIMessageChunk) => void;
  readonly #send: UiSend;
  /** The reasoning parts open, the model's id to the message's. */
  readonly #open = new Map<string, string>();

  constructor(write: (chunk: UIMessageChunk) => void, send: UiSend) {
    this.#write = write;
    this.#send = send;
  }

  /** Writes the chunks of one event (at `index` in the turn's stream); nothing when its kind is switched off. */
  handle(event: AsideStreamEvent, index: number): void {
    switch (event.type) {
      case "reasoning-start":
        if (this.#send.reasoning) this.#start(event.id, index);
        return;
      case "reasoning-delta": {
        if (!this.#send.reasoning || event.text === "") return;
        // A rejoin may start reading after the part's start.
        const id = this.#open.get(event.id) ?? this.#start(event.id, index);
        this.#write({ type: "reasoning-delta", id, delta: event.text });
        return;
      }
      case "reasoning-end": {
        const id = this.#open.get(event.id);
        if (id === undefined) return;
        this.#open.delete(event.id);
        this.#write({ type: "reasoning-end", id });
        return;
      }
      case "source": {
        if (!this.#send.sources) return;
        const { source } = event;
        if (source.sourceType === "url") {
          this.#write({ type: "source-url", sourceId: source.id, url: source.url, ...(source.title !== undefined && { title: source.title }) });
        } else {
          this.#write({ type: "source-document", sourceId: source.id, mediaType: source.mediaType, title: source.title, ...(source.filename !== undefined && { filename: source.filename }) });
        }
        return;
      }
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  }

  /** Ends the reasoning parts still open (the turn ended, or asks for a decision). */
  end(): void {
    for (const id of this.#open.values()) this.#write({ type: "reasoning-end", id });
    this.#open.clear();
  }

  #start(modelId: string, index: number): string {
    const open = this.#open.get(modelId);
    if (open !== undefined) return open;
    const id = `r${index}`;
    this.#open.set(modelId, id);
    this.#write({ type: "reasoning-start", id });
    return id;
  }
}
