import type { ResponderProvenance, TurnMetadata } from "../stores/types.js";
import { JuneSpan } from "./june-span.js";
import { childSettings, type Telemetry, type TelemetrySettings } from "./options.js";

/** What a turn's span starts with. */
export interface TurnSpanInfo {
  sessionId: string;
  turnId: string;
  provenance: ResponderProvenance;
  input: string;
}

/** How a turn ended, as its span records it. */
export type TurnSpanOutcome =
  | { status: "completed"; text: string; metadata: TurnMetadata }
  | { status: "failed"; error: unknown }
  | { status: "canceled" }
  | { status: "suspended" };

/**
 * A chat turn's span, `june.turn`: session and turn ids, the responder's kind, id and version, the input's
 * size (its text with `recordInputs`), then status, model, usage and the reply's size (its text with
 * `recordOutputs`). Steer and cancel are its events. The responder runs with it active and gets
 * `settings` as `RespondOptions.telemetry`, so a run it starts nests below it.
 */
export class TurnSpans {
  private constructor(readonly span: JuneSpan) {}

  static start(telemetry: Telemetry, info: TurnSpanInfo): TurnSpans | undefined {
    const span = JuneSpan.start(telemetry, "june.turn", {
      "june.session.id": info.sessionId,
      "gen_ai.conversation.id": info.sessionId,
      "june.turn.id": info.turnId,
      "june.responder.kind": info.provenance.kind,
      "june.responder.id": info.provenance.id,
      "june.responder.version": info.provenance.version,
      "june.input.chars": info.input.length,
    });
    if (!span) return undefined;
    span.input("june.turn.input", info.input);
    return new TurnSpans(span);
  }

  /** The telemetry a responder hands to what it starts (`start(element, { telemetry })`). */
  get settings(): TelemetrySettings {
    return childSettings(this.span.telemetry, this.span.context);
  }

  with<T>(fn: () => T): T {
    return this.span.with(fn);
  }

  steer(input: string): void {
    this.span.inputEvent("june.steer", input);
  }

  cancel(): void {
    this.span.event("june.cancel");
  }

  end(outcome: TurnSpanOutcome): void {
    switch (outcome.status) {
      case "completed": {
        const { metadata } = outcome;
        this.span.output("june.turn.output", outcome.text);
        return this.span.end({
          "june.turn.status": "completed",
          "june.output.chars": outcome.text.length,
          "gen_ai.request.model": metadata.model?.modelId,
          "june.model.provider": metadata.model?.provider,
          "gen_ai.usage.input_tokens": metadata.usage?.inputTokens,
          "gen_ai.usage.output_tokens": metadata.usage?.outputTokens,
          "june.usage.total_tokens": metadata.usage?.totalTokens,
          "gen_ai.response.finish_reasons": metadata.finishReason !== undefined ? [metadata.finishReason] : undefined,
        });
      }
      case "failed":
        this.span.fail(outcome.error);
        return this.span.end({ "june.turn.status": "failed" });
      case "canceled":
        return this.span.end({ "june.turn.status": "canceled" });
      case "suspended":
        return this.span.end({ "june.turn.status": "suspended" });
      default: {
        const unknown: never = outcome;
        void unknown;
      }
    }
  }
}
