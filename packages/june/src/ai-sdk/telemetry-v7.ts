import * as diagnostics from "node:diagnostics_channel";
import { redact } from "../redaction/redact.js";
import type { CallSettings } from "./call-types.js";
import type { AttemptHooks } from "./attempts-v6.js";

/** An AI SDK 7 telemetry integration (`Telemetry` in `ai@7`; its type is not in AI SDK 6's, so kept loose here). */
type Integration = Record<string, unknown>;

/**
 * AI SDK 7's telemetry options for one call: `telemetry`, and `onLanguageModelCallStart` when June watches the
 * call's requests. Its spans come from the integrations registered with `registerTelemetry` (e.g. `@ai-sdk/otel`'s
 * `OpenTelemetry`), on unless the settings say `isEnabled: false`; inputs and outputs are recorded only when asked
 * (`recordInputs` / `recordOutputs`, June's default `false`). Each registered integration gets its events through
 * June's redaction (a credential in a header, a setting or a message is masked before any span holds it). June's
 * attempt watch goes beside them (per-call integrations replace the global list, so it is read and kept), and
 * stays on when the user turned telemetry off.
 *
 * When nothing could record (no integration registered, no subscriber on the AI SDK's `ai:telemetry` tracing
 * channel), June's own defaults are left out: the AI SDK then copies no event to hide its inputs and outputs
 * from readers that are not there (a few per cent of a turn's CPU on Node 24, bench/README.md "Round four").
 */
export function v7TelemetryOptions(settings: CallSettings["experimental_telemetry"], attempts: AttemptHooks | undefined): Record<string, unknown> {
  const registered = settings?.isEnabled === false ? [] : globalIntegrations().map(redactingIntegration);
  const watch = attempts ? attemptWatch(attempts) : undefined;
  const options: Record<string, unknown> = watch ? { onLanguageModelCallStart: watch.onLanguageModelCallStart } : {};
  const integrations = watch ? [watch.integration, ...registered] : registered;
  if (integrations.length === 0) {
    if (settings?.isEnabled === false) options["telemetry"] = { isEnabled: false };
    return options;
  }
  const { tracer: _tracer, isEnabled: _isEnabled, ...rest } = (settings ?? {}) as Record<string, unknown>;
  options["telemetry"] =
    registered.length > 0 || tracingSubscribed()
      ? { ...rest, recordInputs: settings?.recordInputs ?? false, recordOutputs: settings?.recordOutputs ?? false, integrations }
      : { ...rest, integrations };
  return options;
}

/** The AI SDK's tracing channel (`ai:telemetry`), looked up once. */
let channel: { readonly hasSubscribers?: boolean } | undefined;

/** Whether anything listens on the AI SDK's tracing channel (true when that cannot be told). */
function tracingSubscribed(): boolean {
  try {
    channel ??= diagnostics.tracingChannel("ai:telemetry") as { readonly hasSubscribers?: boolean };
    return channel.hasSubscribers !== false;
  } catch {
    return true;
  }
}

/** The integrations registered with AI SDK 7's `registerTelemetry` (its registry is this global array). */
function globalIntegrations(): Integration[] {
  const list = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS;
  return Array.isArray(list) ? (list as Integration[]) : [];
}

/** Integrations already wrapped, so a long-lived server wraps each registered one once (a WeakMap lets them go). */
const wrapped = new WeakMap<Integration, Integration>();

/**
 * `integration`, with every event it is told of passed through June's `redact` first. The `execute` of
 * `executeLanguageModelCall` / `executeTool` is handed on as it is (the request itself is not June's to change).
 */
function redactingIntegration(integration: Integration): Integration {
  const known = wrapped.get(integration);
  if (known) return known;
  const out: Integration = {};
  // Own and inherited methods: an integration is often a class instance.
  for (let proto: object | null = integration; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === "constructor" || key in out) continue;
      const value = (integration as Record<string, unknown>)[key];
      if (typeof value !== "function") {
        out[key] = value;
        continue;
      }
      const method = value as (event: unknown) => unknown;
      out[key] =
        key === "executeLanguageModelCall" || key === "executeTool"
          ? ({ execute, ...event }: { execute: unknown }) => method.call(integration, { ...redact(event), execute })
          : (event: unknown) => method.call(integration, redact(event));
    }
  }
  wrapped.set(integration, out);
  return out;
}

/**
 * What reports each request of one `streamText` call to `hooks` on AI SDK 7, which runs
 * `retry(() => streamLanguageModelCall(...))`: every attempt calls the call's own `onLanguageModelCallStart` (a
 * `streamText` option, no telemetry event built for it), then runs the provider request through the
 * integrations' `executeLanguageModelCall`, where a request that fails rejects before `retry` decides to try
 * again. (AI SDK 6 has neither hook; `attempts-v6.ts` reads its spans.)
 */
export function attemptWatch(hooks: AttemptHooks): { onLanguageModelCallStart: () => void; integration: Integration } {
  let attempt = 0;
  return {
    onLanguageModelCallStart() {
      hooks.onAttempt(++attempt, Date.now());
    },
    integration: {
      async executeLanguageModelCall<T>({ execute }: { execute: () => PromiseLike<T> }): Promise<T> {
        const current = attempt;
        try {
          return await execute();
        } catch (error) {
          hooks.onAttemptError(current, error, Date.now());
          throw error;
        }
      },
    },
  };
}
