import type { FinishReason, LanguageModelResponseMetadata, LanguageModelUsage, ModelMessage, TextStreamPart, ToolSet } from "ai";
import type { CallSettings, ModelInfo } from "../ai-sdk/call-types.js";
import { inputMessages, modelCallSpanName, outputMessages, requestAttributes, responseAttributes } from "./gen-ai.js";
import type { Context } from "@opentelemetry/api";
import { JuneSpan, type SpanAttributes } from "./june-span.js";
import type { Telemetry } from "./options.js";
import type { Cost } from "../cost/price.js";

/** What a model call's span starts from. */
export interface ModelCallInfo {
  readonly model: ModelInfo;
  readonly settings: CallSettings;
  readonly system: string | undefined;
  readonly messages: readonly ModelMessage[];
  /** June's own ids (`june.step.id`, `june.run.id`). */
  readonly attributes?: SpanAttributes;
}

interface Finish {
  response?: Pick<LanguageModelResponseMetadata, "id" | "timestamp" | "modelId">;
  usage?: LanguageModelUsage;
  finishReason?: FinishReason | string;
}

/**
 * The span of one `streamText` call, named and attributed by the GenAI conventions (`chat {model}`,
 * `gen_ai.*`). It reads the call's stream parts (usage, finish reason, the reply's text when outputs are
 * recorded) and is the active span while `streamText` runs, so the AI SDK's `ai.streamText` spans nest below it.
 */
export class ModelCallSpan {
  #text = "";
  #chars = 0;
  #finish: Finish | undefined;
  #cost: Cost | undefined;

  private constructor(readonly span: JuneSpan) {}

  /** Starts the span under `parent` (default: the telemetry's context, else the active one); undefined when it does not record. */
  static start(telemetry: Telemetry, parent: Context | undefined, info: ModelCallInfo): ModelCallSpan | undefined {
    const span = JuneSpan.start(telemetry, modelCallSpanName(info.model), { ...requestAttributes(info.model, info.settings, info.messages.length), ...info.attributes }, parent);
    if (!span) return undefined;
    span.input("gen_ai.system_instructions", info.system);
    if (span.telemetry.recordInputs) span.input("gen_ai.input.messages", inputMessages(info.messages));
    return new ModelCallSpan(span);
  }

  /** Runs `fn` (the `streamText` call) with this span active. */
  with<T>(fn: () => T): T {
    return this.span.with(fn);
  }

  onPart(part: TextStreamPart<ToolSet>): void {
    switch (part.type) {
      case "text-delta":
        this.#chars += part.text.length;
        if (this.span.telemetry.recordOutputs) this.#text += part.text;
        return;
      case "finish-step":
        this.#finish = { response: part.response, usage: part.usage, finishReason: part.finishReason };
        return;
      case "finish":
        this.#finish ??= { usage: part.totalUsage, finishReason: part.finishReason };
        return;
      default:
        return;
    }
  }

  /** What the call cost: `june.cost.usd` on the span (left out when unknown). */
  cost(cost: Cost): void {
    this.#cost = cost;
  }

  fail(error: unknown): void {
    this.span.fail(error);
    this.end("error");
  }

  /** Ends the span with what the call reported; `reason` overrides the finish reason (`interrupted`, `canceled`). */
  end(reason?: string): void {
    if (this.span.ended) return;
    const finishReason = reason ?? this.#finish?.finishReason;
    if (this.span.telemetry.recordOutputs && this.#text.length > 0) this.span.output("gen_ai.output.messages", outputMessages(this.#text, finishReason));
    this.span.end({ ...responseAttributes({ ...this.#finish, finishReason }), "june.output.chars": this.#chars, "june.cost.usd": this.#cost?.usd });
  }
}
