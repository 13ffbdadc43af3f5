/**
 * The OTel SDK's in-memory exporter behind a registered NodeTracerProvider (with its AsyncLocalStorage
 * context manager), for tests that read the spans a turn or run produced.
 */
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";

export interface MemoryTracing {
  readonly exporter: InMemorySpanExporter;
  readonly provider: NodeTracerProvider;
  /** The finished spans so far. */
  spans(): ReadableSpan[];
}

/** Registers the provider globally (once per test file: vitest isolates files). */
export function memoryTracing(): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  return { exporter, provider, spans: () => exporter.getFinishedSpans() };
}

/** The parent span id of a span (SDK 2.x keeps it in `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Everything a span carries that leaves the process: name, attributes, events (with theirs), status. */
export function exported(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}
