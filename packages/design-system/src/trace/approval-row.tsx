import { useState } from "react";
import { RowFrame } from "./row-frame.js";
import { ApprovalIcon } from "./icons.js";
import type { TraceActions, ChatTraceApprovalRow } from "./types.js";

const DEFAULT_REASON = "Denied by the user";

/**
 * A tool call waiting for a decision. Approve runs the tool; Edit (offered when the row carries the input
 * itself, not only its excerpt) opens it as JSON to change before approving: fields shown `[redacted]` and
 * left so keep the model's value; an edit the tool's schema, a guardrail or the policy refuses is shown, and
 * the request stays pending;
 * Deny never runs it and tells the model why (the reason typed, else `actions.defaultDenyReason`). The row
 * leaves the next snapshot once the run took the decision.
 */
export function ApprovalRow({ row, actions }: { row: ChatTraceApprovalRow; actions?: TraceActions }) {
  const [busy, setBusy] = useState<"approve" | "deny" | null>(null);
  const [mode, setMode] = useState<"ask" | "deny" | "edit">("ask");
  const [reason, setReason] = useState("");
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const approvalId = row.approvalId;
  const canDecide = actions !== undefined && row.status === "pending";

  async function decide(kind: "approve" | "deny", edited?: string) {
    if (!actions) return;
    let input: unknown;
    if (edited !== undefined) {
      try {
        input = JSON.parse(edited);
      } catch (caught) {
        setError(`The input is not JSON: ${caught instanceof Error ? caught.message : String(caught)}`);
        return;
      }
    }
    setBusy(kind);
    setError(null);
    try {
      if (kind === "approve") await (input === undefined ? actions.approve(approvalId) : actions.approve(approvalId, input));
      else await actions.deny(approvalId, reason.trim() || actions.defaultDenyReason || DEFAULT_REASON);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(null);
    }
  }

  // What may be edited: the input itself (redacted), never its excerpt (a cut string is no input to run).
  const editable = typeof row.inputValue === "object" && row.inputValue !== null;

  function startEditing() {
    setDraft(JSON.stringify(row.inputValue, null, 2));
    setError(null);
    setMode("edit");
  }

  const body = canDecide ? (
    <div className="jt-approval">
      {mode === "edit" ? (
        <form
          className="jt-approval__edit"
          onSubmit={(event) => {
            event.preventDefault();
            void decide("approve", draft);
          }}
        >
          <textarea
            className="jt-input jt-approval__json"
            autoFocus
            spellCheck={false}
            aria-label="Tool input (JSON)"
            rows={Math.min(12, Math.max(3, draft.split("\n").length))}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          {draft.includes("[redacted") ? <p className="jt-approval__hint">A value shown as [redacted] keeps what the model sent; leave it as it is, or type it in full.</p> : null}
          <div className="jt-approval__actions">
            <button type="submit" className="jt-button jt-button--primary" disabled={busy !== null}>
              {busy === "approve" ? "Approving…" : "Approve edited"}
            </button>
            <button type="button" className="jt-button jt-button--quiet" onClick={() => setMode("ask")} disabled={busy !== null}>
              Back
            </button>
          </div>
        </form>
      ) : mode === "deny" ? (
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
          <button type="button" className="jt-button jt-button--quiet" onClick={() => setMode("ask")} disabled={busy !== null}>
            Back
          </button>
        </form>
      ) : (
        <div className="jt-approval__actions">
          <button type="button" className="jt-button jt-button--primary" onClick={() => void decide("approve")} disabled={busy !== null}>
            {busy === "approve" ? "Approving…" : "Approve"}
          </button>
          {editable ? (
            <button type="button" className="jt-button" onClick={startEditing} disabled={busy !== null}>
              Edit…
            </button>
          ) : null}
          <button type="button" className="jt-button" onClick={() => setMode("deny")} disabled={busy !== null}>
            Deny…
          </button>
        </div>
      )}
      {error ? <p className="jt-error">{error}</p> : null}
    </div>
  ) : undefined;

  return <RowFrame row={row} icon={<ApprovalIcon />} body={body} />;
}
