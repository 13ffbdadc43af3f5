import { replySource, type ReplySource } from "../../ai-sdk/model-asides.js";
import type { ReasoningDeltaEvent, ReasoningEndEvent, ReasoningStartEvent, SourceEvent } from "../types/event-types.js";

/** What a turn-end keeps of the asides: the sources (part of the reply), the reasoning only when the chat asks. */
export interface JournaledAsides {
  reasoning?: string;
  sources?: ReplySource[];
}

/** A turn event that is not the reply's text: what the model sent beside it. */
export type AsideEvent = ReasoningStartEvent | ReasoningDeltaEvent | ReasoningEndEvent | SourceEvent;

/**
 * What a turn's model sent beside its reply, gathered from the turn's events as they pass: its reasoning
 * (the parts joined by a blank line) and the sources it cited (each once, by id). `turn.result` and the
 * journal read it.
 */
export class ReplyAsides {
  #reasoning = "";
  /** Reasoning parts open, by id: a delta of an unknown part starts one. */
  #open = false;
  readonly #sources: ReplySource[] = [];
  readonly #sourceIds = new Set<string>();

  /** The reasoning so far ("" when none). */
  get reasoning(): string {
    return this.#reasoning;
  }

  /** The sources cited so far, in order. */
  get sources(): readonly ReplySource[] {
    return this.#sources;
  }

  /** What the turn's end journals: the sources, and the reasoning when `withReasoning`. */
  journaled(withReasoning: boolean): JournaledAsides {
    const kept: JournaledAsides = {};
    if (withReasoning && this.#reasoning !== "") kept.reasoning = this.#reasoning;
    if (this.#sources.length > 0) kept.sources = [...this.#sources];
    return kept;
  }

  /** Takes one event; false when it is malformed (the turn drops it) or a source cited already. */
  take(event: AsideEvent): boolean {
    switch (event.type) {
      case "reasoning-start":
        if (typeof event.id !== "string") return false;
        if (this.#reasoning !== "" && !this.#open) this.#reasoning += "\n\n";
        this.#open = true;
        return true;
      case "reasoning-delta":
        if (typeof event.id !== "string" || typeof event.text !== "string") return false;
        this.#reasoning += event.text;
        return true;
      case "reasoning-end":
        this.#open = false;
        return typeof event.id === "string";
      case "source": {
        const source = replySource(event.source);
        if (!source || this.#sourceIds.has(source.id)) return false;
        this.#sourceIds.add(source.id);
        this.#sources.push(source);
        return true;
      }
      default: {
        const unknown: never = event;
        void unknown;
        return false;
      }
    }
  }
}
