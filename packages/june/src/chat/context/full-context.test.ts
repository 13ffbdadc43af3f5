import { describe, expect, test } from "vitest";
import type { ContextOptions, ContextResult, TurnRecord } from "../types.js";
import { fullContext } from "./full-context.js";
import { turnMessages } from "./turn-messages.js";

const options: ContextOptions = { sessionId: "s", input: "next", entries: [] };

function turn(id: string, status: TurnRecord["status"] = "completed"): TurnRecord {
  return { id, input: `in ${id}`, steers: [], status, startedAt: "2024-01-01T00:00:00.000Z", ...(status === "completed" ? { text: `out ${id}` } : {}) };
}

/** What a builder that remembers nothing sends. */
function expected(history: TurnRecord[]): { messages: unknown[]; turnIds: string[] } {
  const completed = history.filter((r) => r.status === "completed");
  return { messages: completed.flatMap((r) => turnMessages(r)), turnIds: completed.map((r) => r.id) };
}

function call(builder: ReturnType<typeof fullContext>, history: TurnRecord[]): ContextResult {
  return builder(history.slice(), options) as ContextResult;
}

describe("fullContext across calls (it keeps what it built per session)", () => {
  test("a growing history gives what a fresh builder gives, in fresh arrays of frozen messages", () => {
    const builder = fullContext();
    const history: TurnRecord[] = [];
    let previous: ContextResult | undefined;
    for (let i = 0; i < 30; i++) {
      history.push(turn(`t${i}`, i % 7 === 3 ? "failed" : "completed"));
      const result = call(builder, history);
      expect(result).toEqual({ name: "fullContext", ...expected(history) });
      expect(result.messages.every((m) => Object.isFrozen(m))).toBe(true);
      if (previous) {
        expect(result.messages).not.toBe(previous.messages);
        // A caller that changes the array it got changes nothing for the next call.
        previous.messages.push({ role: "user", content: "injected" });
        previous.turnIds.length = 0;
      }
      previous = result;
    }
  });

  test("a record that changed since, a shorter history or another order rebuilds from there", () => {
    const builder = fullContext();
    const history = Array.from({ length: 10 }, (_, i) => turn(`t${i}`));
    call(builder, history);

    // An interrupted turn (another process) completes later; a completed one reads differently.
    history[4] = turn("t4", "interrupted");
    expect(call(builder, history)).toEqual({ name: "fullContext", ...expected(history) });
    history[4]!.status = "completed";
    history[4]!.text = "late reply";
    expect(call(builder, history)).toEqual({ name: "fullContext", ...expected(history) });
    history[6]!.text = "edited";
    expect(call(builder, history)).toEqual({ name: "fullContext", ...expected(history) });
    history[2]!.steers.push({ input: "steer", atChar: 2 });
    expect(call(builder, history).messages).toEqual(expected(history).messages);
    history[2]!.steers[0]!.atChar = 3;
    expect(call(builder, history).messages).toEqual(expected(history).messages);

    const prefix = history.slice(0, 5);
    expect(call(builder, prefix)).toEqual({ name: "fullContext", ...expected(prefix) });
    const swapped = [history[0]!, history[2]!, history[1]!, ...history.slice(3)];
    expect(call(builder, swapped)).toEqual({ name: "fullContext", ...expected(swapped) });
    expect(call(builder, history)).toEqual({ name: "fullContext", ...expected(history) });
  });

  test("sessions sharing a builder do not mix", () => {
    const builder = fullContext();
    const a = [turn("a1"), turn("a2")];
    const b = [turn("b1")];
    call(builder, a);
    call(builder, b);
    a.push(turn("a3"));
    b.push(turn("b2"));
    expect(call(builder, a).turnIds).toEqual(["a1", "a2", "a3"]);
    expect(call(builder, b).turnIds).toEqual(["b1", "b2"]);
    expect(call(builder, [])).toEqual({ name: "fullContext", messages: [], turnIds: [] });
  });
});
