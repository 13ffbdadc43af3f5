import { describe, expect, it } from "vitest";
import { Agent, Parallel, RunError, Step, Tool, start } from "june";
import { jsonSchema } from "ai";
import { scriptedModel } from "june/testing";
import { BudgetExceededError } from "./errors.js";

// Each call spends 40 tokens; the budget is 30. The overshoot is bounded by the calls in flight at once.
const CALL = { text: "Done.", usage: { inputTokens: 20, outputTokens: 20 } };
const topicSchema = jsonSchema<{ topic: string }>({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] });

async function spentBy(run: ReturnType<typeof start>): Promise<number> {
  const error = await run.result.catch((e: unknown) => e);
  expect(RunError.isInstance(error)).toBe(true);
  expect(BudgetExceededError.isInstance((error as RunError).cause)).toBe(true);
  return (error as RunError).result.usage.totalTokens;
}

describe("concurrent calls against a budget: the overshoot is at most the calls in flight (`concurrency`)", () => {
  it("three parallel steps with concurrency 1: the budget is judged as each takes its slot, one call spends (40 of 30)", async () => {
    const model = scriptedModel(() => CALL);
    const run = start(
      <Agent model={model}>
        <Parallel>
          <Step id="a" prompt="a" />
          <Step id="b" prompt="b" />
          <Step id="c" prompt="c" />
        </Parallel>
      </Agent>,
      { budget: { turn: { tokens: 30 } }, concurrency: 1 },
    );
    expect(await spentBy(run)).toBe(40);
    expect(model.callCount).toBe(1);
  });

  it("three sub-agents at once with concurrency 2: at most two calls in flight spend (80 of 30, never 120)", async () => {
    const sub = scriptedModel(() => CALL);
    const parent = scriptedModel([
      {
        toolCalls: ["x", "y", "z"].map((topic) => ({ toolName: "research", input: { topic }, toolCallId: `call-${topic}` })),
        usage: { inputTokens: 0, outputTokens: 0 },
      },
      "never",
    ]);
    const run = start(
      <Agent model={parent}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Agent model={sub}><Step id="go" prompt="go" /></Agent>} />
        <Step id="ask" prompt="research three topics" />
      </Agent>,
      { budget: { turn: { tokens: 30 } }, concurrency: 2 },
    );
    const spent = await spentBy(run);
    expect(spent).toBeLessThanOrEqual(80);
    expect(sub.callCount).toBeLessThanOrEqual(2);
  });
});
