import { useHalt } from "./halted.js";
import type { ChatTraceRowStatus } from "./types.js";

const LABELS: Record<ChatTraceRowStatus, string> = {
  running: "Running",
  pending: "Waiting",
  error: "Failed",
  done: "Done",
};

const HALTED = { suspended: "Suspended", interrupted: "Interrupted" } as const;

/**
 * A small pill that names a row's status, with a dot that pulses while it runs. A denied tool call is its
 * own state ("Denied"), never "Done", though its row is finished; a row left running by a turn that halted
 * (`TraceList`'s `halted`) reads "Suspended" or "Interrupted", never "Running".
 */
export function StatusBadge({
  status,
  canceled = false,
  denied = false,
}: {
  status: ChatTraceRowStatus;
  canceled?: boolean;
  denied?: boolean;
}) {
  const halt = useHalt();
  const state =
    canceled && status === "error" ? "canceled" : denied && status !== "running" ? "denied" : halt && status === "running" ? halt : status;
  const label = state === "canceled" ? "Canceled" : state === "denied" ? "Denied" : state === "suspended" || state === "interrupted" ? HALTED[state] : LABELS[status];
  return (
    <span className={`jt-badge jt-badge--${state}`} data-status={status} data-state={state}>
      <span className="jt-badge__dot" aria-hidden="true" />
      {label}
    </span>
  );
}
