/**
 * `june chat|ask|run|studio` with `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * set: a tracer provider that sends every span (June's, and the AI SDK's where a module enables them) to
 * that endpoint over OTLP/HTTP (JSON). Loaded with `import()` only when the variable is set, so the OTel SDK
 * costs nothing otherwise. The library itself never imports the SDK.
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/** How long exiting waits for the last spans to reach the collector. */
const FLUSH_TIMEOUT_MS = 5_000;

export interface OtlpExport {
  /** Where the spans go. */
  readonly url: string;
  /** Sends the spans still buffered and stops (at most FLUSH_TIMEOUT_MS). */
  shutdown(): Promise<void>;
}

/**
 * Registers a global tracer provider (with the AsyncLocalStorage context manager, so the AI SDK's spans nest
 * under June's) that batches spans to `url`. Headers (`OTEL_EXPORTER_OTLP_HEADERS`, for Langfuse's
 * `Authorization`) are read by the exporter from the environment. The service is `OTEL_SERVICE_NAME` or `june`.
 */
export function startOtlpExport(options: { url: string; env: Readonly<Record<string, string | undefined>>; version: string }): OtlpExport {
  const exporter = new OTLPTraceExporter({ url: options.url });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.env.OTEL_SERVICE_NAME?.trim() || "june",
      "service.version": options.version,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  provider.register();
  return {
    url: options.url,
    async shutdown() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)));
      await Promise.race([provider.shutdown().catch(() => {}), timeout]);
      clearTimeout(timer);
    },
  };
}
