import { context as otelContext, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import { redactText } from "../redaction/redact.js";
import { contentValue, safeAttributes, type AttributeInput } from "./attributes.js";
import type { Telemetry } from "./options.js";

/** June's attribute names are its own constants: only their values need the redaction. */
const OWN = { checkKeys: false };

/** Attributes June sets, before redaction. */
export type SpanAttributes = Readonly<Record<string, AttributeInput>>;

/**
 * One of June's spans: every attribute, event and error passes the redaction; content only through
 * `input()` / `output()`, which record nothing unless `recordInputs` / `recordOutputs` are on. Ends once.
 */
export class JuneSpan {
  #ended = false;

  constructor(
    readonly telemetry: Telemetry,
    readonly span: Span,
    /** The context with this span active: the parent of what runs below it. */
    readonly context: Context,
  ) {}

  /**
   * Starts a span under `parent` (default: the telemetry's context, else the active one). Undefined when the
   * span is not recording (no tracer provider, or sampled out): nothing below it is worth building.
   */
  static start(telemetry: Telemetry, name: string, attributes: SpanAttributes, parent?: Context): JuneSpan | undefined {
    const base = parent ?? telemetry.context ?? otelContext.active();
    const span = telemetry.tracer.startSpan(name, {}, base);
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    span.setAttributes(safeAttributes(attributes, OWN));
    return new JuneSpan(telemetry, span, trace.setSpan(base, span));
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** A span below this one. */
  child(name: string, attributes: SpanAttributes): JuneSpan | undefined {
    if (this.#ended) return undefined;
    return JuneSpan.start(this.telemetry, name, attributes, this.context);
  }

  set(attributes: SpanAttributes): void {
    if (!this.#ended) this.span.setAttributes(safeAttributes(attributes, OWN));
  }

  /** Records input content under `key` when `recordInputs` is on. */
  input(key: string, value: unknown): void {
    if (this.telemetry.recordInputs && value !== undefined && !this.#ended) {
      this.span.setAttribute(key, contentValue(value, this.telemetry.maxContentChars));
    }
  }

  /** Records output content under `key` when `recordOutputs` is on. */
  output(key: string, value: unknown): void {
    if (this.telemetry.recordOutputs && value !== undefined && !this.#ended) {
      this.span.setAttribute(key, contentValue(value, this.telemetry.maxContentChars));
    }
  }

  event(name: string, attributes: SpanAttributes = {}): void {
    if (!this.#ended) this.span.addEvent(name, safeAttributes(attributes, OWN));
  }

  /** An event about user input (a steer): its size, and its text when `recordInputs` is on. */
  inputEvent(name: string, input: string | undefined): void {
    if (input === undefined) return this.event(name);
    const { recordInputs, maxContentChars } = this.telemetry;
    this.event(name, { "june.input.chars": input.length, ...(recordInputs ? { "june.input": contentValue(input, maxContentChars) } : {}) });
  }

  /** Records `error` on this span (name and redacted message) and marks it failed. */
  fail(error: unknown): void {
    if (this.#ended) return;
    const { name, message } = describeError(error);
    const [safeName, safeMessage] = [redactText(name), redactText(message)];
    this.span.recordException({ name: safeName, message: safeMessage });
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: safeMessage });
  }

  end(attributes?: SpanAttributes): void {
    if (this.#ended) return;
    if (attributes) this.span.setAttributes(safeAttributes(attributes, OWN));
    this.#ended = true;
    this.span.end();
  }

  /** Runs `fn` with this span active, so what it starts (the AI SDK's spans) nests below it. */
  with<T>(fn: () => T): T {
    return otelContext.with(this.context, fn);
  }
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name || "Error", message: error.message };
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    const e = error as { name?: unknown; message: string };
    return { name: typeof e.name === "string" ? e.name : "Error", message: e.message };
  }
  return { name: "Error", message: String(error) };
}
