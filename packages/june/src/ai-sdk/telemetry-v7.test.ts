import { tracingChannel } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import { v7TelemetryOptions } from "./telemetry-v7.js";

const hooks = { onAttempt: () => {}, onAttemptError: () => {} };
const registry = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] };

afterEach(() => {
  delete registry.AI_SDK_TELEMETRY_INTEGRATIONS;
});

describe("AI SDK 7's telemetry options for one call", () => {
  it("with nothing that could record, June's attempt watch alone and no input or output settings (the AI SDK copies no event to hide them)", () => {
    const options = v7TelemetryOptions(undefined, hooks);
    expect(typeof options["onLanguageModelCallStart"]).toBe("function");
    const telemetry = options["telemetry"] as Record<string, unknown>;
    expect(telemetry["integrations"]).toHaveLength(1);
    expect("recordInputs" in telemetry).toBe(false);
    expect("recordOutputs" in telemetry).toBe(false);
  });

  it("a registered integration: inputs and outputs off unless asked, the integration beside June's watch", () => {
    registry.AI_SDK_TELEMETRY_INTEGRATIONS = [{ onStart() {} }];
    const telemetry = v7TelemetryOptions(undefined, hooks)["telemetry"] as Record<string, unknown>;
    expect(telemetry).toMatchObject({ recordInputs: false, recordOutputs: false });
    expect(telemetry["integrations"]).toHaveLength(2);
    expect((v7TelemetryOptions({ isEnabled: true, recordInputs: true }, hooks)["telemetry"] as Record<string, unknown>)["recordInputs"]).toBe(true);
  });

  it("a subscriber on the AI SDK's tracing channel: inputs and outputs off unless asked", () => {
    const channel = tracingChannel("ai:telemetry");
    const subscriber = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    channel.subscribe(subscriber);
    try {
      expect(v7TelemetryOptions(undefined, hooks)["telemetry"]).toMatchObject({ recordInputs: false, recordOutputs: false });
    } finally {
      channel.unsubscribe(subscriber);
    }
    expect("recordInputs" in (v7TelemetryOptions(undefined, hooks)["telemetry"] as object)).toBe(false);
  });

  it("telemetry off and no attempt watch: isEnabled false; off with the watch: the watch alone, never a registered integration", () => {
    registry.AI_SDK_TELEMETRY_INTEGRATIONS = [{ onStart() {} }];
    expect(v7TelemetryOptions({ isEnabled: false }, undefined)).toEqual({ telemetry: { isEnabled: false } });
    const off = v7TelemetryOptions({ isEnabled: false }, hooks)["telemetry"] as Record<string, unknown>;
    expect(off["integrations"]).toHaveLength(1);
    expect(off["isEnabled"]).toBeUndefined();
  });
});
