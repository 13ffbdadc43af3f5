// The words of one model call, on the lowest floor (the AI SDK adapter's): the runtime, telemetry and the
// stores all speak them, and none of those floors imports another to get them. `runtime/types.ts` re-exports them.
import type { AiTelemetrySettings } from "./telemetry-settings.js";

/** Which model answered: the AI SDK model's `provider` and `modelId`. */
export interface ModelInfo {
  provider: string;
  modelId: string;
}

/** Token usage. A run's usage sums every model call's. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Settings an `Agent` passes to every `streamText` call below it. */
export interface CallSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  maxRetries?: number;
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, Record<string, any>>;
  /**
   * The AI SDK's telemetry, passed to `streamText`: `{ isEnabled: true }` makes it emit its `ai.streamText`
   * spans, nested under June's model-call spans. Its tracer is wrapped in June's redaction, and unset
   * `recordInputs` / `recordOutputs` follow June's `telemetry` (default `false`). See docs/telemetry.md.
   */
  experimental_telemetry?: AiTelemetrySettings;
}
