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
 * The trace rows a parked turn shows for the requests it waits on, shaped as a live turn's are (a tool row
 * waiting for approval, its approval row under it), after the rows of the turn's trace that are not pending.
 */
export function suspendedRows(trace: readonly ChatTraceRow[], pending: readonly PendingApproval[]): ChatTraceRow[] {
  const settled = trace.filter((row) => !hasApproval(row, pending));
  return [
    ...settled,
    ...pending.map(
      (request): ChatTraceRow => ({
        kind: "tool",
        id: `suspended-tool-${request.id}`,
        toolName: request.toolName,
        toolCallId: request.toolCallId,
        title: `Waiting for approval: ${request.toolName}`,
        status: "pending",
        input: request.input,
        approval: { state: "pending" },
        children: [
          {
            kind: "approval",
            id: `suspended-approval-${request.id}`,
            approvalId: request.id,
            toolName: request.toolName,
            title: `Approval needed: ${request.toolName}`,
            status: "pending",
            input: request.input,
            children: [],
          },
        ],
      }),
    ),
  ];
}

/** True when a row (or a row under it) is the approval row of one of `pending`. */
function hasApproval(row: ChatTraceRow, pending: readonly PendingApproval[]): boolean {
  if (row.kind === "approval" && pending.some((request) => request.id === row.approvalId)) return true;
  return row.children.some((child) => hasApproval(child, pending));
}
