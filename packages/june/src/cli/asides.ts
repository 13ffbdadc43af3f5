import type { ReasoningDeltaStreamEvent, ReasoningEndStreamEvent, ReasoningStartStreamEvent, SourceStreamEvent } from "../chat/stream/turn-stream-event.js";
import type { ReplySource } from "../ai-sdk/model-asides.js";
import type { Screen } from "./screen.js";

/**
 * What `june ask` and `june chat` show beside the reply: the model's reasoning (`--reasoning`), dimmed on
 * stderr, each part once it ended (before the reply it leads to); the sources it cited, a numbered list on
 * stdout after the reply (they are part of it). The events are redacted already.
 */
export class CliAsides {
  readonly #screen: Screen;
  #reasoning = "";
  readonly #sources: ReplySource[] = [];

  constructor(screen: Screen) {
    this.#screen = screen;
  }

  take(event: ReasoningStartStreamEvent | ReasoningDeltaStreamEvent | ReasoningEndStreamEvent | SourceStreamEvent): void {
    switch (event.type) {
      case "reasoning-start":
        this.#printReasoning();
        return;
      case "reasoning-delta":
        this.#reasoning += event.text;
        return;
      case "reasoning-end":
        this.#printReasoning();
        return;
      case "source":
        this.#sources.push(event.source);
        return;
      default: {
        const unreachable: never = event;
        void unreachable;
      }
    }
  }

  /** The sources, numbered, after the reply (nothing when it cited none). */
  printSources(): void {
    this.#printReasoning();
    if (this.#sources.length === 0) return;
    this.#screen.reply(`\n${renderSources(this.#sources, this.#screen.out.dim)}`);
    this.#screen.endReply({ always: true });
  }

  #printReasoning(): void {
    const text = this.#reasoning.trim();
    this.#reasoning = "";
    if (text !== "") this.#screen.note(this.#screen.err.dim(text));
  }
}

/** `Sources:` and one numbered line per source: its title, then its link (or its file name). */
export function renderSources(sources: readonly ReplySource[], dim: (text: string) => string = (text) => text): string {
  const lines = sources.map((source, i) => {
    const where = source.sourceType === "url" ? source.url : (source.filename ?? source.mediaType);
    const title = source.title !== undefined && source.title !== where ? `${source.title} ` : "";
    return `${i + 1}. ${title}${dim(where)}`;
  });
  return `Sources:\n${lines.join("\n")}\n`;
}
