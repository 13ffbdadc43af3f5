import { trace, type Context, type Tracer } from "@opentelemetry/api";

/** How June reports a run or a chat's turns as OpenTelemetry spans (see docs/telemetry.md). */
export interface TelemetrySettings {
  /** Where the spans go. Default: the tracer `"june"` of the registered tracer provider (none: nothing is recorded). */
  tracer?: Tracer;
  /**
   * Also record what goes in: prompts, instructions, the turn's input, steer input, tool inputs, a denial's
   * reason. Redacted and cut at `maxContentChars`. Default `false`: spans carry ids, names, sizes, timings and
   * usage only. (The AI SDK's name; it is also the default of `experimental_telemetry.recordInputs` below.)
   */
  recordInputs?: boolean;
  /** Also record what comes out: replies and tool outputs. Redacted and bounded. Default `false`. */
  recordOutputs?: boolean;
  /** The longest content attribute, in characters (default 4,096); longer content is cut and marked. */
  maxContentChars?: number;
  /**
   * The OpenTelemetry context June's first span starts in. Default: the active context. A chat hands its
   * turn's context to the turn's run here, so the run's spans sit under the turn's.
   */
  context?: Context;
}

/**
 * `telemetry` of `createChat` and `start`: left out or `true`, spans go to the registered tracer provider
 * (with none registered nothing is recorded and a turn costs one no-op span); `false`, no spans at all; an
 * object configures the tracer and what content is recorded.
 */
export type TelemetryOption = boolean | TelemetrySettings;

/** Telemetry resolved from a `TelemetryOption`: what June's spans need. Internal. */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly recordInputs: boolean;
  readonly recordOutputs: boolean;
  readonly maxContentChars: number;
  /** The user's own tracer was given: the AI SDK's spans go to it too. */
  readonly customTracer: boolean;
  /** Where the first span starts; undefined: the active context at that moment. */
  readonly context: Context | undefined;
}

export const DEFAULT_MAX_CONTENT_CHARS = 4_096;

/** The tracer name June's spans carry (`otel.scope.name`). */
export const TRACER_NAME = "june";

/**
 * Resolves a `telemetry` option; `undefined` when it is `false`. `where` names the option in errors.
 *
 * @throws TypeError naming the bad field.
 */
export function resolveTelemetry(option: TelemetryOption | undefined, where: string): Telemetry | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) {
    return { tracer: trace.getTracer(TRACER_NAME), recordInputs: false, recordOutputs: false, maxContentChars: DEFAULT_MAX_CONTENT_CHARS, customTracer: false, context: undefined };
  }
  if (typeof option !== "object" || option === null) {
    throw new TypeError(`${where}: telemetry must be true, false or an object of { tracer, recordInputs, recordOutputs, maxContentChars }, got ${option === null ? "null" : typeof option}`);
  }
  const { tracer, recordInputs, recordOutputs, maxContentChars, context } = option;
  if (tracer !== undefined && (typeof tracer !== "object" || tracer === null || typeof tracer.startSpan !== "function")) {
    throw new TypeError(`${where}: telemetry.tracer must be an OpenTelemetry Tracer (with startSpan)`);
  }
  for (const [name, value] of [["recordInputs", recordInputs], ["recordOutputs", recordOutputs]] as const) {
    if (value !== undefined && typeof value !== "boolean") throw new TypeError(`${where}: telemetry.${name} must be a boolean, got ${typeof value}`);
  }
  if (maxContentChars !== undefined && !(Number.isInteger(maxContentChars) && maxContentChars > 0)) {
    throw new TypeError(`${where}: telemetry.maxContentChars must be a positive whole number, got ${String(maxContentChars)}`);
  }
  if (context !== undefined && (typeof context !== "object" || context === null || typeof context.getValue !== "function")) {
    throw new TypeError(`${where}: telemetry.context must be an OpenTelemetry Context`);
  }
  return {
    tracer: tracer ?? trace.getTracer(TRACER_NAME),
    recordInputs: recordInputs ?? false,
    recordOutputs: recordOutputs ?? false,
    maxContentChars: maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS,
    customTracer: tracer !== undefined,
    context,
  };
}

/** The settings that hand `telemetry` on to work started below a span (a turn's run), parented by `context`. */
export function childSettings(telemetry: Telemetry, context: Context): TelemetrySettings {
  return {
    ...(telemetry.customTracer ? { tracer: telemetry.tracer } : {}),
    recordInputs: telemetry.recordInputs,
    recordOutputs: telemetry.recordOutputs,
    maxContentChars: telemetry.maxContentChars,
    context,
  };
}
