import {
  INVALID_SPAN_CONTEXT,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from "@opentelemetry/api";
import type { AiTelemetrySettings as TelemetrySettings } from "./telemetry-settings.js";

/** What `observeAttempts` reports: each request the AI SDK makes for one call, and each that failed. */
export interface AttemptHooks {
  /** A request starts; `attempt` counts from 1 (2 and on are the AI SDK's retries). */
  onAttempt(attempt: number, at: number): void;
  /** A request failed before its stream opened: the AI SDK retries it when it is retryable and tries remain. */
  onAttemptError(attempt: number, error: unknown, at: number): void;
}

/** The span the AI SDK's `streamText` opens around each request (`doStream`), once per attempt. */
const ATTEMPT_SPAN = "ai.streamText.doStream";

/**
 * `experimental_telemetry` for one `streamText` call that also reports each request to `hooks`, so the model
 * goes to `streamText` unchanged (a gateway id string too). The AI SDK runs `retry(() => recordSpan(...))`: each
 * attempt opens its own `ai.streamText.doStream` span, and a request that fails rejects inside that span before
 * `retry` decides to try again, which makes the tracer the one place every attempt and every failure shows as it
 * happens. `settings` is what June would pass otherwise (see `aiSdkTelemetry`): on, its tracer gets every span
 * as before, with the same settings; off, the spans go to a tracer that records nothing, and inputs and outputs
 * are not recorded (the AI SDK then never serializes the prompt or the response for telemetry).
 */
export function observeAttempts(settings: TelemetrySettings | undefined, hooks: AttemptHooks): TelemetrySettings {
  if (settings?.isEnabled === true) return { ...settings, tracer: attemptTracer(settings.tracer ?? trace.getTracer("ai"), hooks) };
  return { isEnabled: true, recordInputs: false, recordOutputs: false, tracer: attemptTracer(silentTracer, hooks) };
}

/** `inner`, with each attempt span's start and rejection reported to `hooks`; every other span passes through. */
function attemptTracer(inner: Tracer, hooks: AttemptHooks): Tracer {
  let attempt = 0;
  return {
    startSpan: (name: string, options?: SpanOptions, parent?: Context) => inner.startSpan(name, options, parent),
    startActiveSpan: ((name: string, ...args: unknown[]) => {
      if (name !== ATTEMPT_SPAN) return (inner.startActiveSpan as (name: string, ...rest: unknown[]) => unknown)(name, ...args);
      const fn = args.pop() as (span: Span) => unknown;
      const current = ++attempt;
      hooks.onAttempt(current, Date.now());
      const observed = (span: Span): unknown => {
        const result = fn(span);
        // `recordSpan` hands back a promise; its rejection is the failed request, seen before `retry` goes on.
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          hooks.onAttemptError(current, error, Date.now());
          throw error;
        });
      };
      return (inner.startActiveSpan as (name: string, ...rest: unknown[]) => unknown)(name, ...args, observed);
    }) as Tracer["startActiveSpan"],
  };
}

const silentSpan: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * A tracer that records nothing and leaves the active context alone, as the AI SDK's own while telemetry is
 * off (`trace.getTracer` would reach a globally registered provider, which the user did not ask for here).
 */
const silentTracer: Tracer = {
  startSpan: () => silentSpan,
  startActiveSpan: ((_name: string, ...args: unknown[]) => (args[args.length - 1] as (span: Span) => unknown)(silentSpan)) as Tracer["startActiveSpan"],
};
