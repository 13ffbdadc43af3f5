import type { ChatTraceRow, ChatTraceRowStatus } from "./types.js";

/** Counts of a trace's rows by kind, and the state that matters most across them. */
export interface TraceSummary {
  steps: number;
  modelCalls: number;
  toolCalls: number;
  /** Approvals waiting for a decision. */
  approvals: number;
  /** `pending` if anything waits for a decision, else `error`, `running`, or `done`. */
  status: ChatTraceRowStatus;
}

/** Summarizes rows for a one-line header: "2 steps · 1 tool call". */
export function summarizeTrace(rows: readonly ChatTraceRow[]): TraceSummary {
  const summary: TraceSummary = { steps: 0, modelCalls: 0, toolCalls: 0, approvals: 0, status: "done" };
  const statuses = new Set<ChatTraceRowStatus>();
  const visit = (row: ChatTraceRow) => {
    statuses.add(row.status);
    switch (row.kind) {
      case "step":
        summary.steps++;
        break;
      case "model":
        summary.modelCalls++;
        break;
      case "tool":
        summary.toolCalls++;
        break;
      case "approval":
        summary.approvals++;
        break;
      default: {
        const unknown: never = row;
        void unknown;
      }
    }
    row.children.forEach(visit);
  };
  rows.forEach(visit);
  for (const status of ["pending", "error", "running"] as const) {
    if (statuses.has(status)) {
      summary.status = status;
      break;
    }
  }
  return summary;
}

/** "2 steps · 3 model calls · 1 tool call". */
export function describeTrace(summary: TraceSummary): string {
  const parts = [
    count(summary.steps, "step"),
    count(summary.modelCalls, "model call"),
    count(summary.toolCalls, "tool call"),
  ].filter((part) => part !== "");
  return parts.join(" · ");
}

function count(n: number, noun: string): string {
  return n === 0 ? "" : `${n} ${noun}${n === 1 ? "" : "s"}`;
}
