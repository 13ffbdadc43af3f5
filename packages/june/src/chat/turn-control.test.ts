import { describe, expect, test } from "vitest";
import type { ApprovalRequest, DecisionOutcome } from "../runtime/types.js";
import { createChat } from "./create-chat.js";
import { ApprovalNotPendingError, InputTooLargeError, SteerNotSupportedError, TurnEndedError } from "./errors.js";
import type { Responder, TurnEvent, ResponderResult } from "./types.js";

/** A turn that asks for one approval and ends once it is decided (or canceled). */
function askingResponder(): { responder: Responder; decided: { id: string; approved: boolean }[] } {
  const decided: { id: string; approved: boolean }[] = [];
  const responder: Responder = {
    respond({ signal }) {
      const request: ApprovalRequest = { id: "a1", stepId: "reply", toolName: "deploy", toolCallId: "call-1", input: {} };
      let requests = [request];
      let finish!: (result: ResponderResult) => void;
      let fail!: (error: unknown) => void;
      const result = new Promise<ResponderResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
      result.catch(() => {});
      signal.addEventListener("abort", () => fail(signal.reason), { once: true });
      async function* events(): AsyncGenerator<TurnEvent> {
        yield { type: "approval-request", request };
      }
      const decide = (id: string, approved: boolean): DecisionOutcome => {
        if (!requests.some((r) => r.id === id)) return { kind: "not-pending" };
        requests = [];
        decided.push({ id, approved });
        queueMicrotask(() => finish({ text: approved ? "deployed" : "not deployed" }));
        return { kind: "decided" };
      };
      return {
        result,
        events: events(),
        get requests() {
          return requests;
        },
        decide: (id, decision) => decide(id, decision.approved),
      };
    },
  };
  return { responder, decided };
}

async function waiting() {
  const asking = askingResponder();
  const turn = (await createChat({ responder: asking.responder, maxInputChars: 20 }).createSession()).send("go");
  for await (const event of turn) if (event.type === "approval-request") break;
  return { turn, decided: asking.decided };
}

describe("turn.control: a control the turn cannot take throws a typed error", () => {
  test("an approval the turn does not wait on is an ApprovalNotPendingError naming it; a decided one too", async () => {
    const { turn, decided } = await waiting();
    const unknown = await turn.control({ type: "approve", approvalId: "nope" }).catch((error: unknown) => error);
    expect(ApprovalNotPendingError.isInstance(unknown)).toBe(true);
    expect(unknown).toMatchObject({ name: "ApprovalNotPendingError", turnId: turn.id, approvalId: "nope" });
    expect((unknown as Error).message).toMatch(/No pending approval "nope"/);

    await turn.control({ type: "approve", approvalId: "a1" });
    expect(decided).toEqual([{ id: "a1", approved: true }]);
    await expect(turn.control({ type: "deny", approvalId: "a1" })).rejects.toBeInstanceOf(ApprovalNotPendingError);
    // The boolean forms answer the same decision.
    expect(turn.approve("a1")).toBe(false);
    await turn.result;
  });

  test("once the turn is over every control is a TurnEndedError naming the control", async () => {
    const { turn } = await waiting();
    expect(turn.deny("a1", "no")).toBe(true);
    await turn.result;
    const approve = await turn.control({ type: "approve", approvalId: "a1" }).catch((error: unknown) => error);
    expect(TurnEndedError.isInstance(approve)).toBe(true);
    expect(approve).toMatchObject({ control: "approve", approvalId: "a1", turnId: turn.id });
    expect((approve as Error).message).toMatch(/cannot decide approval "a1"/);
    await expect(turn.control({ type: "cancel" })).rejects.toMatchObject({ name: "TurnEndedError", control: "cancel" });
    await expect(turn.control({ type: "steer", input: "more" })).rejects.toMatchObject({ name: "TurnEndedError", control: "steer" });
    // `cancel()` itself stays a no-op on an ended turn.
    expect(() => turn.cancel()).not.toThrow();
  });

  test("steer: SteerNotSupportedError, InputTooLargeError, TypeError; cancel ends the turn", async () => {
    const { turn } = await waiting();
    await expect(turn.control({ type: "steer", input: "more" })).rejects.toBeInstanceOf(SteerNotSupportedError);
    await expect(turn.control({ type: "steer", input: "x".repeat(21) })).rejects.toBeInstanceOf(InputTooLargeError);
    await expect(turn.control({ type: "steer", input: "" })).rejects.toBeInstanceOf(TypeError);
    await turn.control({ type: "cancel" });
    await expect(turn.result).rejects.toMatchObject({ name: "CanceledError" });
    expect(turn.status).toBe("canceled");
  });
});
