import type { ChatTraceRow, PendingApproval, SessionDetail, TurnRecord } from "../api/types";

/** True for a durable turn no process runs that deciding resumes: suspended, or interrupted and resumable. */
export function isParked(record: TurnRecord): boolean {
  return record.status === "suspended" || (record.status === "interrupted" && record.resumable === true);
}

/** The requests a parked turn of the session waits on (none for any other turn). */
export function pendingOf(detail: SessionDetail | null, record: TurnRecord): PendingApproval[] {
  if (!detail?.pendingApprovals || !isParked(record)) return [];
  return detail.pendingApprovals.filter((request) => request.turnId === record.id);
}

/**
 * The trace rows a parked turn shows: its trace so far (when this page or the server still has it), then,
 * for each request the trace has no approval row of (after a restart, all), the rows the server projected
 * for it (`pendingRows`: the same projection as a live turn's, so they read as the live ones did).
 */
export function suspendedRows(trace: readonly ChatTraceRow[], pending: readonly PendingApproval[], projected: readonly ChatTraceRow[] = []): ChatTraceRow[] {
  const missing = pending.filter((request) => !trace.some((row) => hasApproval(row, request.id)));
  return [...trace, ...projected.filter((row) => missing.some((request) => hasApproval(row, request.id)))];
}

/** True when a row (or a row under it) is the pending approval row of `approvalId`. */
function hasApproval(row: ChatTraceRow, approvalId: string): boolean {
  if (row.kind === "approval" && row.approvalId === approvalId && row.status === "pending") return true;
  return row.children.some((child) => hasApproval(child, approvalId));
}
