import type { ChatTraceRowStatus } from "./types.js";

const LABELS: Record<ChatTraceRowStatus, string> = {
  running: "Running",
  pending: "Waiting",
  error: "Failed",
  done: "Done",
};

/** A small pill that names a row's status, with a dot that pulses while it runs. */
export function StatusBadge({ status, canceled = false }: { status: ChatTraceRowStatus; canceled?: boolean }) {
  const label = canceled && status === "error" ? "Canceled" : LABELS[status];
  return (
    <span className={`jt-badge jt-badge--${canceled ? "canceled" : status}`} data-status={status}>
      <span className="jt-badge__dot" aria-hidden="true" />
      {label}
    </span>
  );
}
