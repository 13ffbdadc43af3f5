import {
  context as otelContext,
  trace,
  type Context,
  type Exception,
  type Link,
  type Span,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
} from "@opentelemetry/api";
import type { AiTelemetrySettings } from "../ai-sdk/telemetry-settings.js";
import { redactText } from "../redaction/redact.js";
import type { CallSettings } from "../ai-sdk/call-types.js";
import { safeAttributes, safeValue } from "./attributes.js";
import type { Telemetry } from "./options.js";

/**
 * `experimental_telemetry` as June passes it to `streamText`: unchanged while it is off. On, its tracer
 * (else June's own when one was given, else the AI SDK's default) is wrapped in the redaction, and where it
 * leaves `recordInputs` / `recordOutputs` unset June's settings apply (default `false`, where the AI SDK's
 * default is `true`), so a prompt reaches the AI SDK's spans only when the user asked for it.
 */
export function aiSdkTelemetry(user: AiTelemetrySettings | undefined, telemetry: Telemetry | undefined): AiTelemetrySettings | undefined {
  if (!user || user.isEnabled !== true) return user;
  const tracer = user.tracer ?? (telemetry?.customTracer ? telemetry.tracer : trace.getTracer("ai"));
  return {
    ...user,
    recordInputs: user.recordInputs ?? telemetry?.recordInputs ?? false,
    recordOutputs: user.recordOutputs ?? telemetry?.recordOutputs ?? false,
    tracer: redactingTracer(tracer),
  };
}

/**
 * The call settings with `experimental_telemetry` resolved (see `aiSdkTelemetry`); `override` (a `<Step>`'s
 * own) replaces the inherited one. The same object when there is none.
 */
export function withAiSdkTelemetry(settings: CallSettings, override: AiTelemetrySettings | undefined, telemetry: Telemetry | undefined): CallSettings {
  const user = override ?? settings.experimental_telemetry;
  if (user === undefined) return settings;
  return { ...settings, experimental_telemetry: aiSdkTelemetry(user, telemetry) };
}

/** A tracer whose spans pass every attribute, event and error through June's redaction. */
export function redactingTracer(inner: Tracer): Tracer {
  const options = (spanOptions: SpanOptions | undefined): SpanOptions | undefined =>
    spanOptions?.attributes ? { ...spanOptions, attributes: safeAttributes(spanOptions.attributes) } : spanOptions;
  return {
    startSpan: (name: string, spanOptions?: SpanOptions, parent?: Context) => new RedactedSpan(inner.startSpan(name, options(spanOptions), parent)),
    startActiveSpan: ((name: string, ...args: unknown[]) => {
      const fn = args.pop() as (span: Span) => unknown;
      const [spanOptions, parent] = args as [SpanOptions | undefined, Context | undefined];
      const base = parent ?? otelContext.active();
      const span = inner.startSpan(name, options(spanOptions), base);
      return otelContext.with(trace.setSpan(base, span), fn, undefined, new RedactedSpan(span));
    }) as Tracer["startActiveSpan"],
  };
}

class RedactedSpan implements Span {
  constructor(private readonly inner: Span) {}
  spanContext(): SpanContext {
    return this.inner.spanContext();
  }
  setAttribute(key: string, value: SpanAttributeValue): this {
    if (value !== undefined && value !== null) this.inner.setAttribute(key, safeValue(key, value));
    return this;
  }
  setAttributes(attributes: SpanAttributes): this {
    this.inner.setAttributes(safeAttributes(attributes));
    return this;
  }
  addEvent(name: string, attributesOrStartTime?: SpanAttributes | TimeInput, startTime?: TimeInput): this {
    const isAttributes = typeof attributesOrStartTime === "object" && attributesOrStartTime !== null && !Array.isArray(attributesOrStartTime) && !(attributesOrStartTime instanceof Date);
    this.inner.addEvent(name, isAttributes ? safeAttributes(attributesOrStartTime as SpanAttributes) : attributesOrStartTime, startTime);
    return this;
  }
  addLink(link: Link): this {
    this.inner.addLink(link);
    return this;
  }
  addLinks(links: Link[]): this {
    this.inner.addLinks(links);
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.inner.setStatus(status.message === undefined ? status : { ...status, message: redactText(status.message) });
    return this;
  }
  updateName(name: string): this {
    this.inner.updateName(name);
    return this;
  }
  end(endTime?: TimeInput): void {
    this.inner.end(endTime);
  }
  isRecording(): boolean {
    return this.inner.isRecording();
  }
  recordException(exception: Exception, time?: TimeInput): void {
    if (typeof exception === "string") return this.inner.recordException(redactText(exception), time);
    const { name, message, stack, code } = exception as { name?: string; message?: string; stack?: string; code?: string | number };
    this.inner.recordException(
      {
        ...(name !== undefined ? { name: redactText(name) } : {}),
        ...(message !== undefined ? { message: redactText(message) } : {}),
        ...(stack !== undefined ? { stack: redactText(stack) } : {}),
        ...(code !== undefined ? { code } : {}),
      } as Exception,
      time,
    );
  }
}

/** Runs `fn` with `span` active when there is one; plainly otherwise. */
export function within<T>(span: { with<R>(fn: () => R): R } | undefined, fn: () => T): T {
  return span ? span.with(fn) : fn();
}
