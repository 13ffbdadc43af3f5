import type { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { ROOT_CONTEXT, trace, type Context } from "@opentelemetry/api";
import type { ResponderProvenance, TurnMetadata } from "../stores/types.js";
import { JuneSpan } from "../telemetry/june-span.js";
import { childSettings, type Telemetry, type TelemetrySettings } from "../telemetry/options.js";

/** What a turn's span starts with. */
export interface TurnSpanInfo {
  sessionId: string;
  turnId: string;
  provenance: ResponderProvenance;
  input: string;
}

/**
 * Where a turn's span sits in its trace, as plain data a durable turn's checkpoint keeps, so that a turn
 * resumed in another process (or after a restart) continues the same trace.
 */
export interface TurnTraceLink {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** The OpenTelemetry context of a saved link: its span as a remote parent. Undefined for a malformed one. */
export function linkedContext(link: unknown): Context | undefined {
  if (typeof link !== "object" || link === null) return undefined;
  const { traceId, spanId, traceFlags } = link as Partial<TurnTraceLink>;
  if (typeof traceId !== "string" || !/^[0-9a-f]{32}$/.test(traceId)) return undefined;
  if (typeof spanId !== "string" || !/^[0-9a-f]{16}$/.test(spanId)) return undefined;
  if (typeof traceFlags !== "number") return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags, isRemote: true });
}

/** How a turn ended, as its span records it. */
export type TurnSpanOutcome =
  | { status: "completed"; text: string; metadata: TurnMetadata }
  | { status: "failed"; error: unknown }
  | { status: "canceled" }
  | { status: "suspended" }
  | { status: "blocked"; error: GuardrailTrippedError };

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

  /** This span's place in its trace, for a checkpoint to keep (undefined when nothing is recorded). */
  get link(): TurnTraceLink | undefined {
    const spanContext = trace.getSpanContext(this.span.context);
    if (!spanContext || !trace.isSpanContextValid(spanContext)) return undefined;
    return { traceId: spanContext.traceId, spanId: spanContext.spanId, traceFlags: spanContext.traceFlags };
  }

  /**
   * The span of a durable turn resumed from a checkpoint: a `june.turn` with `june.turn.resumed`, a child of
   * the span the turn started under (`link`, kept in the checkpoint), so one trace shows the turn before and
   * after the process that ran it went away.
   */
  static resume(telemetry: Telemetry, info: TurnSpanInfo, link: unknown): TurnSpans | undefined {
    const parent = linkedContext(link);
    const spans = TurnSpans.start(parent ? { ...telemetry, context: parent } : telemetry, info);
    spans?.span.event("june.resume");
    return spans;
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

  /** A question (`ask_user`) was answered: the event names the request, never the answer. */
  answered(requestId: string): void {
    this.span.event("june.question.answered", { "june.request.id": requestId });
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
          "june.cost.usd": metadata.cost?.usd,
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
      case "blocked":
        this.span.event("june.guardrail.tripped", {
          "june.guardrail.name": outcome.error.guardrail,
          "june.guardrail.stage": outcome.error.stage,
          "june.guardrail.reason": outcome.error.reason,
        });
        return this.span.end({ "june.turn.status": "blocked" });
      default: {
        const unknown: never = outcome;
        void unknown;
      }
    }
  }
}
