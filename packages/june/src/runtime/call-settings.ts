import type { CallSettings } from "./types.js";

/** The `CallSettings` keys, in one place: what `<Agent>` and `modelResponder` pass to `streamText` unchanged. */
export const CALL_SETTING_KEYS = [
  "maxOutputTokens",
  "temperature",
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "stopSequences",
  "seed",
  "maxRetries",
  "headers",
  "providerOptions",
  "experimental_telemetry",
] as const satisfies readonly (keyof CallSettings)[];

/** The call settings set in `source` (an `Agent`'s props, a responder's options), and nothing else. */
export function pickCallSettings(source: Readonly<Record<string, unknown>>): CallSettings {
  const settings: Record<string, unknown> = {};
  for (const key of CALL_SETTING_KEYS) if (source[key] !== undefined) settings[key] = source[key];
  return settings as CallSettings;
}
