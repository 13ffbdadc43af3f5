import { describe, expect, it } from "vitest";
import { ApprovalNotPendingError, InputTooLargeError, SteerNotSupportedError, TurnEndedError } from "../../chat/errors.js";
import { HttpError, statusOf } from "../http-error.js";
import { controlErrorJson, controlErrorOf, parseControlRequest, parseControlResponse } from "./control-messages.js";

/** What the requesting process gets back for an error the owner's turn threw. */
function across(error: unknown): Error {
  const message = JSON.stringify({ requestId: "r1", outcome: { error: controlErrorJson(error) } });
  const response = parseControlResponse(message);
  if (!response || !("error" in response.outcome)) throw new Error("not an error outcome");
  return controlErrorOf(response.outcome.error);
}

describe("a control's error crossing between processes", () => {
  it("comes back as the same class, with its fields, message and status", () => {
    const cases: Error[] = [
      new ApprovalNotPendingError({ turnId: "t1", approvalId: "a1" }),
      new TurnEndedError("t1", undefined, { control: "deny", approvalId: "a1" }),
      new TurnEndedError("t1", "the model's reply is already complete"),
      new SteerNotSupportedError("t1"),
      new InputTooLargeError(30, 20),
      new HttpError(404, 'No live or recent turn "t1"'),
    ];
    for (const error of cases) {
      const back = across(error);
      expect(back.name).toBe(error.name);
      expect(back.message).toBe(error.message);
      expect(back.constructor).toBe(error.constructor);
      expect(statusOf(back)).toBe(statusOf(error));
      expect(back).toMatchObject({ ...error });
    }
    expect(ApprovalNotPendingError.isInstance(across(new ApprovalNotPendingError({ turnId: "t", approvalId: "a" })))).toBe(true);
  });

  it("keeps bad input a 400 and tells nothing of anything else", () => {
    const bad = across(new TypeError("steer input must not be empty"));
    expect(bad).toBeInstanceOf(TypeError);
    expect(bad.message).toBe("steer input must not be empty");
    const internal = across(new Error("connection to /srv/db refused, password=hunter2"));
    expect(statusOf(internal)).toBe(500);
    expect(internal.message).toBe("Internal server error");
  });

  it("refuses replies that are not one", () => {
    expect(parseControlResponse("nope")).toBeUndefined();
    expect(parseControlResponse(JSON.stringify({ requestId: "r", outcome: { error: { name: "X", message: "m", status: 200 } } }))).toBeUndefined();
    expect(parseControlResponse(JSON.stringify({ requestId: "r", outcome: { ok: true } }))).toEqual({ requestId: "r", outcome: { ok: true } });
  });
});

describe("a control crossing between processes", () => {
  it("keeps an approval's edited input and an answer's value (dropped, the owner would run the model's input)", () => {
    const request = (command: unknown) => parseControlRequest(JSON.stringify({ requestId: "r1", replyTo: "p1", turnId: "t1", command }));
    expect(request({ type: "approve", approvalId: "a1", input: { env: "staging" } })?.command).toEqual({ type: "approve", approvalId: "a1", input: { env: "staging" } });
    expect(request({ type: "answer", requestId: "q1", value: { env: "qa" } })?.command).toEqual({ type: "answer", requestId: "q1", value: { env: "qa" } });
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(request({ type: "approve", approvalId: "a1", input: deep })).toBeUndefined();
  });
});
