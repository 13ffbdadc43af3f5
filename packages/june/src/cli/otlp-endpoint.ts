/**
 * Whether the environment asks for OTLP export, without loading the OTel SDK (otlp-export.ts loads it).
 */

/** The traces URL the environment names, or undefined when it names none. */
export function otlpTracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}
