import type {
  ApprovalRequestStreamEvent,
  ErrorInfo,
  TextDeltaStreamEvent,
  ReasoningStartStreamEvent,
  ReasoningDeltaStreamEvent,
  ReasoningEndStreamEvent,
  SourceStreamEvent,
  TurnEndStreamEvent,
  TurnStartStreamEvent,
} from "../chat/stream/turn-stream-event.js";
import { traceRowChanges, type TraceRowChange } from "../chat/stream/trace-row-changes.js";
import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import { errorInfo } from "../chat/stream/error-info.js";
import type { CliIO } from "./io.js";
import type { RunResult, RunStatus, Usage } from "../runtime/types.js";

/**
 * The lines `--json` prints on stdout, one JSON object each: a turn's `turnStream` events as they are
 * (redacted and projected once, as the HTTP API sends them), except `run-update`, which carries the trace
 * rows that changed since the line before (`JsonRunUpdate`), not the whole tree again. The CLI adds the
 * turn's `input` to `turn-start`, an `approval` line saying how each request was answered, and, for
 * `june run`, `run-end`.
 */
export type CliJsonEvent =
  | (TurnStartStreamEvent & { input: string })
  | TextDeltaStreamEvent
  | ReasoningStartStreamEvent
  | ReasoningDeltaStreamEvent
  | ReasoningEndStreamEvent
  | SourceStreamEvent
  | JsonRunUpdate
  | ApprovalRequestStreamEvent
  | { type: "approval"; id: string; toolName: string; approved: boolean; reason?: string; edited?: true }
  | TurnEndStreamEvent
  | JsonRunEnd;

/** `june run`'s last line: how the run ended, its steps' results and its usage, redacted (see `jsonRunEnd`). */
export interface JsonRunEnd {
  type: "run-end";
  runId?: string;
  status: RunStatus;
  steps?: Record<string, unknown>;
  usage?: Usage;
  error?: ErrorInfo;
}

/** What `jsonRunEnd` makes a line of. */
export interface RunEnd {
  runId?: string;
  status: RunStatus;
  /** The run's (possibly partial) result, when there is one. */
  result?: Pick<RunResult, "steps" | "usage">;
  /** What the run failed with, when it failed (not when it was canceled). */
  error?: unknown;
}

/**
 * `june run`'s `run-end` line, safe to print: step results and usage redacted the way the turn stream
 * redacts a turn's metadata (with the output gate's options, June's patterns then `JUNE_REDACT`'s: a step may
 * return a tool's output or a config with a password in it), the failure as the stream's `errorInfo`.
 */
export function jsonRunEnd(end: RunEnd, gate: Pick<CliIO, "redact" | "redaction">): JsonRunEnd {
  return {
    type: "run-end",
    ...(end.runId !== undefined ? { runId: end.runId } : {}),
    status: end.status,
    ...(end.result ? { steps: gate.redact(end.result.steps), usage: gate.redact(end.result.usage) } : {}),
    ...("error" in end ? { error: errorInfo(end.error, { redaction: gate.redaction }) } : {}),
  };
}

/**
 * A `run-update` as `--json` prints it: the rows that are new or changed since the last `run-update` line
 * (each without its children, with its `parentId` and `position`), and the ids of rows that are gone.
 * Upserting `rows` by id and dropping `removed` rebuilds the whole trace (`applyTraceRowChanges`).
 */
export interface JsonRunUpdate {
  type: "run-update";
  rows: TraceRowChange[];
  removed: string[];
}

/** Turns each trace snapshot into the `run-update` line of what changed since the one before. */
export class JsonTraceRows {
  #rows: readonly ChatTraceRow[] = [];

  /** The line for `rows`, or `undefined` when nothing changed. */
  update(rows: readonly ChatTraceRow[]): JsonRunUpdate | undefined {
    const changes = traceRowChanges(this.#rows, rows);
    this.#rows = rows;
    if (changes.rows.length === 0 && changes.removed.length === 0) return undefined;
    return { type: "run-update", ...changes };
  }
}

/** One `--json` line. */
export function jsonLine(event: CliJsonEvent): string {
  return `${JSON.stringify(event, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))}\n`;
}
