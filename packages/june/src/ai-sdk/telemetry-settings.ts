import type { Tracer } from "@opentelemetry/api";

/**
 * The AI SDK's telemetry settings as June takes them (`experimental_telemetry` on `<Agent>`, `<Step>` and
 * `modelResponder`): AI SDK 6's `TelemetrySettings`; on AI SDK 7 they become its `telemetry` option (whose
 * spans come from registered integrations, so `tracer` is AI SDK 6's alone). June's own type, since the two
 * lines name theirs differently.
 */
export interface AiTelemetrySettings {
  /** AI SDK 6: emit its spans (default off). AI SDK 7: `false` leaves out the registered integrations. */
  isEnabled?: boolean;
  /** Record the prompt on the AI SDK's spans (June's default: `false`). */
  recordInputs?: boolean;
  /** Record the reply on the AI SDK's spans (June's default: `false`). */
  recordOutputs?: boolean;
  /** Names the call on the AI SDK's spans. */
  functionId?: string;
  /** AI SDK 6: extra attributes on its spans. */
  metadata?: Record<string, unknown>;
  /** AI SDK 6 only: the tracer for its spans (AI SDK 7: pass one to `@ai-sdk/otel`'s `OpenTelemetry`). */
  tracer?: Tracer;
}
