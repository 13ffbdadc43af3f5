import { APICallError } from "@ai-sdk/provider";
import { customProvider, streamText, type LanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedModel } from "june/testing";
import { memoryTracing } from "../telemetry/__fixtures__/memory-tracing.js";
import { AI_SDK_MAJOR } from "./major.js";
import { streamModel } from "./stream-model.js";

const tracing = memoryTracing();
afterEach(() => tracing.exporter.reset());

const overloaded = () =>
  new APICallError({ message: "Overloaded", url: "http://model.test", requestBodyValues: {}, statusCode: 529, responseHeaders: { "retry-after-ms": "1" }, isRetryable: true });

/** A model whose first `failures` requests fail with a retryable error; `this` is checked to be the model. */
function flakyModel(failures: number) {
  let calls = 0;
  const inner = scriptedModel(() => (calls++ < failures ? { error: overloaded(), errorAt: "start" } : "Fine."));
  const seen: unknown[] = [];
  const model = Object.assign(Object.create(Object.getPrototypeOf(inner) as object) as typeof inner, inner, {
    doStream(this: unknown, options: Parameters<typeof inner.doStream>[0]) {
      seen.push(this);
      return inner.doStream(options);
    },
  });
  return { model, seen };
}

/** The AI SDK ends its outer span just after the text resolves. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

async function run(model: LanguageModel, telemetry: Parameters<typeof streamText>[0]["experimental_telemetry"]) {
  const events: string[] = [];
  const { result } = streamModel({
    model,
    instructions: undefined,
    messages: [{ role: "user", content: "hi" }],
    settings: telemetry ? { experimental_telemetry: telemetry } : {},
    attempts: {
      onAttempt: (attempt) => events.push(`start ${attempt}`),
      onAttemptError: (attempt, error) => events.push(`fail ${attempt} ${(error as Error).message}`),
    },
  });
  const text = await result.text;
  await settled();
  return { events, text };
}

describe("streamModel's attempts", () => {
  it("reports each request and each failure in order, with the model passed to streamText as it is", async () => {
    const { model, seen } = flakyModel(2);
    const { events, text } = await run(model, undefined);
    expect(text).toBe("Fine.");
    expect(events).toEqual(["start 1", "fail 1 Overloaded", "start 2", "fail 2 Overloaded", "start 3"]);
    expect(seen).toEqual([model, model, model]);
  });

  it("telemetry off: nothing reaches a registered tracer", async () => {
    const { model } = flakyModel(1);
    // Unset is off on AI SDK 6; on AI SDK 7 a registered integration is on unless `isEnabled: false`.
    if (AI_SDK_MAJOR === 6) await run(model, undefined);
    await run(model, { isEnabled: false, functionId: "off" });
    expect(tracing.spans()).toEqual([]);
  });

  // AI SDK 6 only: its spans come from `experimental_telemetry.tracer` (AI SDK 7's from registered integrations).
  it.runIf(AI_SDK_MAJOR === 6)("telemetry on: the user's tracer sees the spans and settings the AI SDK gives it without June's observer", async () => {
    const settings = { isEnabled: true, functionId: "fn", recordInputs: false, recordOutputs: false, tracer: tracing.provider.getTracer("user") };
    const plain = flakyModel(1);
    await streamText({ model: plain.model, prompt: "hi", onError: () => {}, experimental_telemetry: settings }).text;
    await settled();
    const without = tracing.spans().map((span) => ({ name: span.name, attributes: Object.keys(span.attributes).sort(), status: span.status.code, events: span.events.map((event) => event.name) }));
    tracing.exporter.reset();
    const observed = flakyModel(1);
    const { events } = await run(observed.model, settings);
    const withObserver = tracing.spans().map((span) => ({ name: span.name, attributes: Object.keys(span.attributes).sort(), status: span.status.code, events: span.events.map((event) => event.name) }));
    expect(events).toEqual(["start 1", "fail 1 Overloaded", "start 2"]);
    expect(withObserver).toEqual(without);
    expect(withObserver.filter((span) => span.name === "ai.streamText.doStream")).toHaveLength(2);
  });

  it("a model given as an id string (resolved by the AI SDK's provider) shows its retries too", async () => {
    const { model } = flakyModel(1);
    const previous = globalThis.AI_SDK_DEFAULT_PROVIDER;
    globalThis.AI_SDK_DEFAULT_PROVIDER = customProvider({ languageModels: { "test/flaky": model } });
    try {
      const { events, text } = await run("test/flaky", undefined);
      expect(text).toBe("Fine.");
      expect(events).toEqual(["start 1", "fail 1 Overloaded", "start 2"]);
    } finally {
      globalThis.AI_SDK_DEFAULT_PROVIDER = previous;
    }
  });
});
