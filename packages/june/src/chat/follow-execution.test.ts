import { describe, expect, test } from "vitest";
import { ResponderContractError } from "./errors.js";
import { followExecution } from "./follow-execution.js";
import { deferred } from "./internal/deferred.js";
import { ReplayBuffer } from "./internal/replay-buffer.js";
import type { SessionJournal } from "./session-journal.js";
import { TurnController } from "./turn.js";
import type { TraceNode } from "../runtime/types.js";
import type { TurnEvent, ResponderResult } from "./types.js";

const provenance = { kind: "custom" as const };

function controller(): TurnController {
  const journal = { rememberedTools: new Set<string>(), append: async () => {} } as unknown as SessionJournal;
  return new TurnController({ id: "t1", sessionId: "s1", journal, maxInputChars: 1_000 });
}

function execution() {
  const result = deferred<ResponderResult>();
  const events = new ReplayBuffer<TurnEvent>();
  return { result, events, execution: { result: result.promise, events } };
}

const tree = { kind: "run", id: "run", status: "running", children: [] } as unknown as TraceNode;

describe("followExecution", () => {
  test("completes once both the result and the events are in, in either order", async () => {
    const turn = controller();
    const { result, events, execution: exec } = execution();
    const following = followExecution({ turn, provenance }, exec);
    events.push({ type: "text-delta", text: "hi" });
    result.resolve({ text: "hi" });
    await Promise.resolve();
    expect(turn.open).toBe(true); // the events have not ended
    events.end();
    const outcome = await following;
    expect(outcome.status).toBe("completed");
    expect(turn.open).toBe(false);
    expect(turn.events.length).toBe(1);
  });

  test("a result that is not an object with a string text fails the turn", async () => {
    const turn = controller();
    const { result, events, execution: exec } = execution();
    const following = followExecution({ turn, provenance }, exec);
    result.resolve({ reply: "hi" } as unknown as ResponderResult);
    events.end();
    const outcome = await following;
    expect(outcome.status).toBe("failed");
    expect(outcome.status === "failed" && outcome.error).toBeInstanceOf(ResponderContractError);
    expect(turn.abort.signal.aborted).toBe(true);
  });

  test("events that throw fail the turn", async () => {
    const turn = controller();
    const { result, events, execution: exec } = execution();
    const following = followExecution({ turn, provenance }, exec);
    const boom = new Error("boom");
    events.fail(boom);
    const outcome = await following;
    expect(outcome).toEqual({ status: "failed", error: boom });
    result.resolve({ text: "late" });
  });

  test("a canceled turn keeps taking run updates, drops reply text, and ends when its events end", async () => {
    const turn = controller();
    const { result, events, execution: exec } = execution();
    const following = followExecution({ turn, provenance }, exec);
    events.push({ type: "text-delta", text: "a" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    turn.cancel();
    expect(turn.cancelRequested).toBe(true);
    await Promise.resolve();
    events.push({ type: "text-delta", text: "b" });
    events.push({ type: "run-update", tree });
    events.end();
    expect(await following).toEqual({ status: "canceled" });
    const seen = [];
    for (let i = 0; i < turn.events.length; i++) seen.push(turn.events.at(i)!.type);
    expect(seen).toEqual(["text-delta", "run-update"]);
    expect(turn.cancelRequested).toBe(true);
    result.reject(new Error("canceled"));
  });

  test("a cancel before a result that fails ends the turn canceled, not failed", async () => {
    const turn = controller();
    const { result, execution: exec } = execution();
    const following = followExecution({ turn, provenance }, exec);
    turn.cancel();
    await Promise.resolve();
    result.reject(new Error("aborted"));
    expect(await following).toEqual({ status: "canceled" });
  });

  test("an execution whose events cannot be opened fails at once", async () => {
    const turn = controller();
    const boom = new Error("no events");
    const outcome = await followExecution(
      { turn, provenance },
      {
        result: Promise.reject(new Error("ignored")),
        events: {
          [Symbol.asyncIterator]() {
            throw boom;
          },
        },
      },
    );
    expect(outcome).toEqual({ status: "failed", error: boom });
  });
});
