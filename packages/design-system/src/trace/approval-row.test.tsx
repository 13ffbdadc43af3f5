import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { waitingStep } from "../__fixtures__/rows.js";
import { TraceList } from "./trace-list.js";
import type { TraceActions } from "./types.js";

afterEach(cleanup);

/** Actions that record each call and settle when the test says so. */
function recordingActions(options: { defaultDenyReason?: string } = {}) {
  const calls: Array<{ kind: "approve" | "deny"; approvalId: string; reason?: string }> = [];
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const wait = () =>
    new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
  const actions: TraceActions = {
    approve(approvalId) {
      calls.push({ kind: "approve", approvalId });
      return wait();
    },
    deny(approvalId, reason) {
      calls.push({ kind: "deny", approvalId, reason });
      return wait();
    },
    ...options,
  };
  return { actions, calls, settle: () => settle! };
}

describe("ApprovalRow", () => {
  it("shows no buttons without actions", () => {
    render(<TraceList rows={[waitingStep]} />);
    expect(screen.getByText("Run deploy?")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("approves with the row's approvalId, once, and says so while the host decides", async () => {
    const { actions, calls, settle } = recordingActions();
    render(<TraceList rows={[waitingStep]} actions={actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(calls).toEqual([{ kind: "approve", approvalId: "approval-1" }]);
    const busy = await screen.findByRole("button", { name: "Approving…" });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    // A second click while busy does nothing.
    fireEvent.click(busy);
    expect(calls).toHaveLength(1);
    settle().resolve();
  });

  it("denies with the reason typed, told to the model", () => {
    const { actions, calls } = recordingActions();
    render(<TraceList rows={[waitingStep]} actions={actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Deny…" }));
    fireEvent.change(screen.getByLabelText("Reason for denying"), { target: { value: "  not on a Friday  " } });
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(calls).toEqual([{ kind: "deny", approvalId: "approval-1", reason: "not on a Friday" }]);
  });

  it("denies without a reason with the host's default, else a plain one", () => {
    const host = recordingActions({ defaultDenyReason: "Denied in June Studio" });
    render(<TraceList rows={[waitingStep]} actions={host.actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Deny…" }));
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(host.calls).toEqual([{ kind: "deny", approvalId: "approval-1", reason: "Denied in June Studio" }]);
    cleanup();

    const plain = recordingActions();
    render(<TraceList rows={[waitingStep]} actions={plain.actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Deny…" }));
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(plain.calls[0]?.reason).toBe("Denied by the user");
  });

  it("goes back from the reason to the two buttons", () => {
    const { actions, calls } = recordingActions();
    render(<TraceList rows={[waitingStep]} actions={actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Deny…" }));
    fireEvent.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("shows a refused decision on the row and lets the user try again", async () => {
    const { actions, calls, settle } = recordingActions();
    render(<TraceList rows={[waitingStep]} actions={actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    settle().reject(new Error("approval-1 is no longer pending"));
    expect(await screen.findByText("approval-1 is no longer pending")).toBeTruthy();
    await waitFor(() => expect((screen.getByRole("button", { name: "Approve" }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(calls).toHaveLength(2);
  });

  it("offers no decision on an approval row that is no longer pending", () => {
    const { actions } = recordingActions();
    const tool = waitingStep.children[1]!;
    const settled = { ...tool, children: [{ ...tool.children[0]!, status: "done" as const }] };
    render(<TraceList rows={[{ ...waitingStep, children: [settled] }]} actions={actions} />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("edits from the redacted input, never from its excerpt: no Edit without the input itself", () => {
    const { actions } = recordingActions();
    const tool = waitingStep.children[1]!;
    const approval = tool.children[0]!;
    const withValue = { ...tool, children: [{ ...approval, input: '{"env":"prod","token":"[redacted]"}', inputValue: { env: "prod", token: "[redacted]" } }] };
    render(<TraceList rows={[{ ...waitingStep, children: [withValue] }]} actions={actions} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit…" }));
    const draft = screen.getByLabelText("Tool input (JSON)") as HTMLTextAreaElement;
    expect(JSON.parse(draft.value)).toEqual({ env: "prod", token: "[redacted]" });
    expect(screen.getByText(/keeps what the model sent/)).toBeTruthy();
    cleanup();

    const excerptOnly = { ...tool, children: [{ ...approval, input: '{"env":"prod","notes":"…', inputValue: '{"env":"prod","notes":"…' }] };
    render(<TraceList rows={[{ ...waitingStep, children: [excerptOnly] }]} actions={actions} />);
    expect(screen.queryByRole("button", { name: "Edit…" })).toBeNull();
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
  });
});
