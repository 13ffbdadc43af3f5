// OpenTelemetry spans from June's structure, through `@opentelemetry/api` only. Internal modules; the public
// types (`TelemetryOption`, `TelemetrySettings`) are re-exported by `june` and `june/chat`.
export type { TelemetryOption, TelemetrySettings } from "./options.js";
