import { describe, expect, it } from "vitest";
import { TurnStreamEventError } from "./turn-stream-event-error.js";
import type { TurnStreamEvent } from "./turn-stream-event.js";
import { isTurnStreamEventType, parseTurnStreamEvent } from "./turn-stream-schema.js";

const valid: TurnStreamEvent[] = [
  { type: "turn-start", turnId: "t", sessionId: "s" },
  { type: "text-delta", text: "Hi" },
  {
    type: "run-update",
    rows: [
      {
        kind: "step",
        id: "step:1",
        stepId: "work",
        title: "Running work",
        status: "running",
        children: [
          {
            kind: "model",
            id: "model:2",
            title: "gpt",
            status: "done",
            model: { provider: "openai", modelId: "gpt" },
            prompt: [{ role: "user", text: "Deploy" }],
            promptOmitted: 2,
            response: [{ role: "assistant", text: "On it" }],
            attempt: 2,
            failedAttempts: [{ attempt: 1, startedAt: 1, endedAt: 2, error: "APICallError: 503" }],
            children: [],
          },
          {
            kind: "tool",
            id: "tool:3",
            title: "deploy",
            status: "pending",
            toolName: "deploy",
            toolCallId: "c",
            input: "{}",
            approval: { state: "pending" },
            children: [{ kind: "approval", id: "approval:a", title: "Waiting", status: "pending", approvalId: "a", toolName: "deploy", input: "{}", children: [] }],
          },
        ],
      },
    ],
  },
  { type: "approval-request", request: { id: "a", stepId: "work", toolName: "deploy", toolCallId: "c", input: "{}", inputValue: {} } },
  { type: "turn-end", turnId: "t", sessionId: "s", status: "failed", error: { name: "Error", message: "boom" } },
  { type: "turn-end", turnId: "t", sessionId: "s", status: "completed", text: "ok", metadata: { responder: { kind: "custom" }, finishReason: "stop" } },
];

function failure(value: unknown): TurnStreamEventError {
  try {
    parseTurnStreamEvent(value);
  } catch (error) {
    if (TurnStreamEventError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected parseTurnStreamEvent to throw");
}

describe("parseTurnStreamEvent", () => {
  it("returns every member of the union as it is, extra fields kept", () => {
    for (const event of valid) expect(parseTurnStreamEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(parseTurnStreamEvent({ type: "text-delta", text: "x", extra: 1 })).toEqual({ type: "text-delta", text: "x", extra: 1 });
  });

  it("names the field that is wrong, never echoing a long value", () => {
    expect(failure(null).path).toBe("");
    expect(failure({ type: "nope" }).message).toMatch(/^Not a turn-stream event: type must be one of turn-start, /);
    expect(failure({ type: "text-delta", text: 3 }).path).toBe("text");
    expect(failure({ type: "turn-end", turnId: "t", sessionId: "s", status: "done" }).path).toBe("status");
    expect(failure({ type: "approval-request", request: { id: "a", stepId: "w", toolName: "d", toolCallId: "c", input: "{}" } }).path).toBe("request.inputValue");
    const run = structuredClone(valid[2]!) as { rows: { children: { status: string }[] }[] };
    run.rows[0]!.children[1]!.status = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz!";
    const error = failure(run);
    expect(error.path).toBe("rows[0].children[1].status");
    expect(error.message).not.toContain("sk-live");
    const model = structuredClone(valid[2]!) as { rows: { children: { prompt?: { role: string }[] }[] }[] };
    model.rows[0]!.children[0]!.prompt![0]!.role = "robot";
    expect(failure(model).path).toBe("rows[0].children[0].prompt[0].role");
    expect(failure({ type: "run-update", rows: [{ kind: "checkpoint", id: "x", title: "x", status: "done", children: [] }] }).path).toBe("rows[0].kind");
  });

  it("tells event types it knows from a newer writer's", () => {
    expect(isTurnStreamEventType("turn-end")).toBe(true);
    expect(isTurnStreamEventType("reasoning-delta")).toBe(true);
    expect(isTurnStreamEventType("data-june-future")).toBe(false);
  });
});
