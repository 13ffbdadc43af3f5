// AI SDK 7 only: a user who registers `@ai-sdk/otel`'s `OpenTelemetry` sees the AI SDK's spans nested under
// June's model-call spans, June's own spans as before, and each failed attempt still on the model-call node (the
// trace's retry rows), through June's attempt integration rather than a span name.
import { APICallError } from "@ai-sdk/provider";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { Agent, Step, start, type ModelCallNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";
import { registerAiSdkOtel } from "../telemetry/__fixtures__/memory-tracing.js";
import { AI_SDK_MAJOR } from "./major.js";

const overloaded = () =>
  new APICallError({ message: "Overloaded", url: "http://model.test", requestBodyValues: {}, statusCode: 529, responseHeaders: { "retry-after-ms": "1" }, isRetryable: true });

function modelCalls(tree: TraceNode): ModelCallNode[] {
  const found: ModelCallNode[] = tree.kind === "model-call" ? [tree] : [];
  for (const child of tree.children) found.push(...modelCalls(child));
  return found;
}

describe.runIf(AI_SDK_MAJOR === 7)("AI SDK 7 with @ai-sdk/otel registered", () => {
  it("nests the AI SDK's spans under June's model-call span, keeps June's spans, and the retry shows on the model-call node", async () => {
    const exporter = new InMemorySpanExporter();
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    registerAiSdkOtel("OpenTelemetry");

    let requests = 0;
    const model = scriptedModel(() => (requests++ === 0 ? { error: overloaded(), errorAt: "start" } : "Fine, SECRET-MARKER."));
    const run = start(
      <Agent model={model} headers={{ Authorization: "Bearer sk-proj-CANARY0123456789abcdef" }}>
        <Step id="answer" prompt="PROMPT-MARKER hi" />
      </Agent>,
      { telemetry: true },
    );
    const result = await run.result;
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.steps.answer).toBe("Fine, SECRET-MARKER.");

    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const parent = (span: ReadableSpan) => byId.get(span.parentSpanContext?.spanId ?? "");
    // June's spans come from its tracer ("june"); @ai-sdk/otel's from its own (its model span is also "chat {model}").
    const june = spans.filter((span) => span.instrumentationScope.name === "june");
    expect(june.map((span) => span.name).sort()).toEqual(["chat scripted", "june.run", "june.step"]);
    const call = june.find((span) => span.name === "chat scripted")!;

    // The AI SDK's spans (its tracer's scope is not June's): each descends from June's model-call span.
    const aiSdk = spans.filter((span) => !june.includes(span));
    expect(aiSdk.length).toBeGreaterThan(0);
    for (const span of aiSdk) {
      let up = parent(span);
      while (up && up !== call && !june.includes(up)) up = parent(up);
      expect(up, `${span.name} under June's model call`).toBe(call);
    }
    // June's redaction reaches the integration's events: no credential, and no prompt or reply (not asked for).
    for (const span of spans) {
      const text = JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events });
      expect(text, span.name).not.toContain("CANARY");
      expect(text, span.name).not.toContain("PROMPT-MARKER");
      expect(text, span.name).not.toContain("SECRET-MARKER");
    }

    // Studio's retry rows: the failed first attempt, then the second, on the one model-call node.
    const [node] = modelCalls(result.trace);
    expect(node!.attempt).toBe(2);
    expect(node!.failedAttempts).toMatchObject([{ attempt: 1, error: { message: "Overloaded" } }]);
  });
});
