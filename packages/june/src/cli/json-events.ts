import type { ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import { redact } from "../redaction/redact.js";
import { excerpt } from "../chat/trace/excerpt.js";
import type { TurnMetadata } from "../stores/types.js";
import type { ApprovalRequest, RunStatus, Usage } from "../runtime/types.js";

/**
 * The lines `--json` prints on stdout, one JSON object each. Turn events come out as the turn emits them,
 * except `run-update`, which carries the trace projected with `projectChatTrace` (never the raw tree), and
 * `approval-request`, whose input is a bounded, redacted excerpt. The CLI adds where a turn starts and
 * ends, and how each approval was answered.
 */
export type CliJsonEvent =
  | { type: "turn-start"; sessionId: string; turnId: string; input: string }
  | { type: "text-delta"; text: string }
  | { type: "run-update"; rows: ChatTraceRow[] }
  | { type: "approval-request"; request: JsonApprovalRequest }
  | { type: "approval"; id: string; toolName: string; approved: boolean; reason?: string }
  | {
      type: "turn-end";
      sessionId: string;
      turnId: string;
      status: "completed" | "failed" | "canceled";
      text?: string;
      metadata?: TurnMetadata;
      error?: { name: string; message: string };
    }
  | {
      type: "run-end";
      runId?: string;
      status: RunStatus;
      steps?: Record<string, unknown>;
      usage?: Usage;
      error?: { name: string; message: string };
    };

/** An approval request as `--json` shows it: the input excerpted and redacted. */
export interface JsonApprovalRequest {
  id: string;
  stepId: string;
  toolName: string;
  toolCallId: string;
  /** A bounded, redacted excerpt of the tool's input. */
  input: string;
}

export function jsonApprovalRequest(request: ApprovalRequest): JsonApprovalRequest {
  return {
    id: request.id,
    stepId: request.stepId,
    toolName: request.toolName,
    toolCallId: request.toolCallId,
    input: excerpt(request.input),
  };
}

/** An error as `--json` shows it: name and message, redacted. */
export function jsonError(error: unknown): { name: string; message: string } {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return redact({ name, message });
}

/** One `--json` line. */
export function jsonLine(event: CliJsonEvent): string {
  return `${JSON.stringify(event, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))}\n`;
}
