import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
import type { ContextOptions, ContextResult, TurnRecord } from "../types.js";
import { fullContext } from "./full-context.js";
import { recentTurns } from "./recent-turns.js";
import { contextTurnIds, resolveContext } from "./resolve-context.js";
import { estimateTokens, tokenBudget } from "./token-budget.js";
import { turnMessages } from "./turn-messages.js";

const options: ContextOptions = { sessionId: "s", input: "next", entries: [] };

function turn(id: string, input: string, text: string | undefined, status: TurnRecord["status"] = "completed"): TurnRecord {
  return { id, input, steers: [], status, startedAt: "2024-01-01T00:00:00.000Z", ...(text !== undefined ? { text } : {}) };
}

const history: TurnRecord[] = [
  turn("t1", "one", "ONE"),
  turn("t2", "two", undefined, "failed"),
  turn("t3", "three", "THREE"),
  turn("t4", "four", undefined, "canceled"),
  turn("t5", "five", undefined, "interrupted"),
  turn("t6", "six", "SIX"),
];

function build(builder: ReturnType<typeof fullContext>, records = history): ContextResult {
  return builder(records, options) as ContextResult;
}

describe("turnMessages", () => {
  test("a plain turn is its input and its reply", () => {
    expect(turnMessages(turn("t", "hi", "hello"))).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  test("a steered turn puts each steer back where it arrived", () => {
    const record = turn("t", "write a poem", "Roses are red. Violets are blue.");
    record.steers = [{ input: "make it about violets", atChar: 15 }];
    expect(turnMessages(record)).toEqual([
      { role: "user", content: "write a poem" },
      { role: "assistant", content: "Roses are red. " },
      { role: "user", content: "make it about violets" },
      { role: "assistant", content: "Violets are blue." },
    ]);
  });

  test("a steer before any text, and two steers at the same place", () => {
    const record = turn("t", "go", "abcdef");
    record.steers = [
      { input: "first", atChar: 0 },
      { input: "second", atChar: 3 },
      { input: "third", atChar: 3 },
    ];
    expect(turnMessages(record).map((m) => m.content)).toEqual(["go", "first", "abc", "second", "third", "def"]);
  });

  test("an atChar past the reply keeps the whole reply before the steer", () => {
    const record = turn("t", "go", "abc");
    record.steers = [{ input: "late", atChar: 99 }];
    expect(turnMessages(record).map((m) => m.content)).toEqual(["go", "abc", "late", ""]);
  });
});

describe("fullContext", () => {
  test("every completed turn, oldest first; failed, canceled and interrupted left out", () => {
    const result = build(fullContext());
    expect(result.name).toBe("fullContext");
    expect(result.turnIds).toEqual(["t1", "t3", "t6"]);
    expect(result.messages.map((m) => m.content)).toEqual(["one", "ONE", "three", "THREE", "six", "SIX"]);
  });

  test("an empty history sends nothing", () => {
    expect(build(fullContext(), [])).toEqual({ name: "fullContext", messages: [], turnIds: [] });
  });
});

describe("recentTurns", () => {
  test("the last n completed turns, oldest first", () => {
    const result = build(recentTurns(2));
    expect(result.name).toBe("recentTurns");
    expect(result.turnIds).toEqual(["t3", "t6"]);
    expect(result.messages.map((m) => m.content)).toEqual(["three", "THREE", "six", "SIX"]);
  });

  test("n larger than the history sends all completed turns; 0 sends none", () => {
    expect(build(recentTurns(10)).turnIds).toEqual(["t1", "t3", "t6"]);
    expect(build(recentTurns(0)).messages).toEqual([]);
  });

  test("refuses a bad n", () => {
    expect(() => recentTurns(-1)).toThrow(TypeError);
    expect(() => recentTurns(1.5)).toThrow(/whole number/);
  });

  test("only reads the end of a long history", () => {
    let reads = 0;
    const long: TurnRecord[] = [];
    for (let i = 0; i < 10_000; i++) long.push(turn(`t${i}`, `in ${i}`, `out ${i}`));
    const watched = new Proxy(long, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const result = build(recentTurns(3), watched);
    expect(result.turnIds).toEqual(["t9997", "t9998", "t9999"]);
    expect(reads).toBe(3);
  });
});

describe("tokenBudget", () => {
  test("the default counter estimates a token per four characters", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });

  test("the newest turns that fit, stopping at the first that does not", () => {
    const records = [turn("a", "x".repeat(40), "y".repeat(40)), turn("b", "short", "reply"), turn("c", "tiny", "ok")];
    // c costs 1 + 1, b costs 2 + 2, a costs 10 + 10.
    expect(build(tokenBudget({ maxTokens: 6 }), records).turnIds).toEqual(["b", "c"]);
    expect(build(tokenBudget({ maxTokens: 5 }), records).turnIds).toEqual(["c"]);
    expect(build(tokenBudget({ maxTokens: 1 }), records).turnIds).toEqual([]);
    const all = build(tokenBudget({ maxTokens: 1000 }), records);
    expect(all.name).toBe("tokenBudget");
    expect(all.turnIds).toEqual(["a", "b", "c"]);
    expect(all.messages).toHaveLength(6);
  });

  test("a custom counter, and failed turns skipped", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const result = build(tokenBudget({ maxTokens: 4, count: words }));
    expect(result.turnIds).toEqual(["t3", "t6"]);
  });

  test("refuses a bad budget", () => {
    expect(() => tokenBudget({ maxTokens: Number.NaN })).toThrow(/maxTokens/);
    expect(() => tokenBudget({ maxTokens: 10, count: 3 as never })).toThrow(/count/);
  });
});

describe("resolveContext", () => {
  test("a bare message array records a custom builder with no turn ids", async () => {
    const messages: ModelMessage[] = [{ role: "user", content: "pinned" }];
    const resolved = await resolveContext(() => messages, history, options);
    expect(resolved).toEqual({ messages, provenance: { builder: "custom", turnIds: [] } });
  });

  test("keeps a summary id and drops non-string turn ids", async () => {
    const resolved = await resolveContext(
      async () => ({ name: "mine", messages: [], turnIds: ["t1", 3 as never], summaryId: "sum-1" }),
      history,
      options,
    );
    expect(resolved.provenance).toEqual({ builder: "mine", turnIds: ["t1"], summaryId: "sum-1" });
  });

  test("a throwing or malformed builder is a ContextBuildError", async () => {
    await expect(
      resolveContext(
        function broken() {
          throw new Error("boom");
        },
        history,
        options,
      ),
    ).rejects.toMatchObject({ name: "ContextBuildError", builder: "broken", message: expect.stringContaining("boom") });
    await expect(resolveContext(() => ({ name: "x" }) as never, history, options)).rejects.toThrow(/messages must be an array/);
    await expect(resolveContext(() => [{ content: "no role" }] as never, history, options)).rejects.toThrow(/messages\[0\]/);
    await expect(resolveContext(() => 42 as never, history, options)).rejects.toThrow(/expected ModelMessage/);
  });
});

describe("context provenance", () => {
  test("every completed turn is recorded as completedThrough, not as a growing list of ids", async () => {
    const resolved = await resolveContext(fullContext(), history, options);
    expect(resolved.provenance).toEqual({ builder: "fullContext", turnIds: [], completedThrough: "t6" });
    expect(contextTurnIds(resolved.provenance, history)).toEqual(["t1", "t3", "t6"]);
  });

  test("a subset keeps its explicit ids", async () => {
    const resolved = await resolveContext(recentTurns(2), history, options);
    expect(resolved.provenance).toEqual({ builder: "recentTurns", turnIds: ["t3", "t6"] });
    expect(contextTurnIds(resolved.provenance, history)).toEqual(["t3", "t6"]);
  });

  test("a 10,000-turn history records one id", async () => {
    const records = Array.from({ length: 10_000 }, (_, i) => turn(`t${i}`, `q${i}`, `a${i}`));
    const resolved = await resolveContext(fullContext(), records, options);
    expect(JSON.stringify(resolved.provenance).length).toBeLessThan(100);
    expect(contextTurnIds(resolved.provenance, records)).toHaveLength(10_000);
  });
});
