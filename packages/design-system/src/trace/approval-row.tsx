import { useState } from "react";
import { RowFrame } from "./row-frame.js";
import { ApprovalIcon } from "./icons.js";
import type { TraceActions, ChatTraceApprovalRow } from "./types.js";

const DEFAULT_REASON = "Denied by the user";

/**
 * A tool call waiting for a decision. Approve runs the tool; Deny never runs it and tells the model
 * why (the reason typed, else `actions.defaultDenyReason`). The row leaves the next snapshot once the run took the decision.
 */
export function ApprovalRow({ row, actions }: { row: ChatTraceApprovalRow; actions?: TraceActions }) {
  const [busy, setBusy] = useState<"approve" | "deny" | null>(null);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const approvalId = row.approvalId;
  const canDecide = actions !== undefined && row.status === "pending";

  async function decide(kind: "approve" | "deny") {
    if (!actions) return;
    setBusy(kind);
    setError(null);
    try {
      if (kind === "approve") await actions.approve(approvalId);
      else await actions.deny(approvalId, reason.trim() || actions.defaultDenyReason || DEFAULT_REASON);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(null);
    }
  }

  const body = canDecide ? (
    <div className="jt-approval">
      {denying ? (
        <form
          className="jt-approval__deny"
          onSubmit={(event) => {
            event.preventDefault();
            void decide("deny");
          }}
        >
          <input
            className="jt-input"
            autoFocus
            placeholder="Reason (optional), told to the model"
            aria-label="Reason for denying"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
          <button type="submit" className="jt-button jt-button--danger" disabled={busy !== null}>
            {busy === "deny" ? "Denying…" : "Deny"}
          </button>
          <button type="button" className="jt-button jt-button--quiet" onClick={() => setDenying(false)} disabled={busy !== null}>
            Back
          </button>
        </form>
      ) : (
        <div className="jt-approval__actions">
          <button type="button" className="jt-button jt-button--primary" onClick={() => void decide("approve")} disabled={busy !== null}>
            {busy === "approve" ? "Approving…" : "Approve"}
          </button>
          <button type="button" className="jt-button" onClick={() => setDenying(true)} disabled={busy !== null}>
            Deny…
          </button>
        </div>
      )}
      {error ? <p className="jt-error">{error}</p> : null}
    </div>
  ) : undefined;

  return <RowFrame row={row} icon={<ApprovalIcon />} body={body} />;
}
