/**
 * The OTel SDK's in-memory exporter behind a registered NodeTracerProvider (with its AsyncLocalStorage
 * context manager), for tests that read the spans a turn or run produced.
 */
import { createRequire } from "node:module";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import * as ai from "ai";
import { AI_SDK_MAJOR } from "../../ai-sdk/major.js";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";

export interface MemoryTracing {
  readonly exporter: InMemorySpanExporter;
  readonly provider: NodeTracerProvider;
  /** The finished spans so far. */
  spans(): ReadableSpan[];
}

/**
 * Registers the provider globally (once per test file: vitest isolates files). On AI SDK 7, whose spans come
 * from a registered integration rather than `experimental_telemetry`, it also registers `@ai-sdk/otel`'s
 * `LegacyOpenTelemetry` (the `ai.streamText` / `ai.streamText.doStream` spans of AI SDK 6), so these tests
 * read the same AI SDK spans on both lines.
 */
export function memoryTracing(): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  if (AI_SDK_MAJOR === 7) registerAiSdkOtel("LegacyOpenTelemetry");
  return { exporter, provider, spans: () => exporter.getFinishedSpans() };
}

/** AI SDK 7 only: registers one of `@ai-sdk/otel`'s integrations (a dev dependency of the AI SDK 7 install). */
export function registerAiSdkOtel(name: "OpenTelemetry" | "LegacyOpenTelemetry"): void {
  const require = createRequire(import.meta.url);
  const otel = require(OTEL_PACKAGE) as Record<string, new () => unknown>;
  (ai as unknown as { registerTelemetry(...integrations: unknown[]): void }).registerTelemetry(new otel[name]!());
}

/** In a variable: `@ai-sdk/otel` exists only in the AI SDK 7 install, so no import names it statically. */
const OTEL_PACKAGE = "@ai-sdk/otel";

/** The parent span id of a span (SDK 2.x keeps it in `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Everything a span carries that leaves the process: name, attributes, events (with theirs), status. */
export function exported(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}
