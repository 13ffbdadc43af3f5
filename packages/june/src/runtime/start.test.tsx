import { jsonSchema, Output, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, Step, start, type StepNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function promptText(messages: readonly unknown[]): string {
  return JSON.stringify(messages);
}

function find(tree: TraceNode, predicate: (node: TraceNode) => boolean): TraceNode[] {
  const found: TraceNode[] = predicate(tree) ? [tree] : [];
  for (const child of tree.children) found.push(...find(child, predicate));
  return found;
}

describe("start", () => {
  it("runs steps in document order and hands earlier results to prompt functions", async () => {
    const model = scriptedModel(["Draft text", "Reviewed text"]);
    const seen: Record<string, unknown>[] = [];
    const run = start(
      <Agent model={model} instructions="Be brief.">
        <Step id="draft" prompt="Write a draft" />
        <Step
          id="review"
          prompt={(ctx) => {
            seen.push({ ...ctx.steps });
            return `Review: ${String(ctx.steps.draft)}`;
          }}
        />
      </Agent>,
    );
    const result = await run.result;
    expect(result.status).toBe("done");
    expect(result.steps).toEqual({ draft: "Draft text", review: "Reviewed text" });
    expect(seen).toEqual([{ draft: "Draft text" }]);
    expect(model.doStreamCalls).toHaveLength(2);
    const [first, second] = model.doStreamCalls;
    expect(promptText(first!.prompt)).toContain("Write a draft");
    expect(first!.prompt[0]).toMatchObject({ role: "system", content: "Be brief." });
    expect(promptText(second!.prompt)).toContain("Review: Draft text");

    const steps = find(result.trace, (node) => node.kind === "step") as StepNode[];
    expect(steps.map((step) => step.name)).toEqual(["draft", "review"]);
    expect(steps[0]!.endedAt!).toBeLessThanOrEqual(steps[1]!.startedAt!);
  });

  it("takes a ModelMessage[] prompt and passes Agent settings, nested Agents overriding", async () => {
    const outer = scriptedModel(["a"]);
    const inner = scriptedModel(["b"]);
    const messages: ModelMessage[] = [
      { role: "user", content: "earlier" },
      { role: "assistant", content: "reply" },
      { role: "user", content: "now" },
    ];
    const result = await start(
      <Agent model={outer} instructions="outer" temperature={0.3} maxOutputTokens={50}>
        <Step id="one" prompt={messages} />
        <Agent model={inner} temperature={0.9}>
          <Step id="two" prompt="x" />
        </Agent>
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ one: "a", two: "b" });
    expect(outer.doStreamCalls[0]!.prompt).toHaveLength(4);
    expect(outer.doStreamCalls[0]!).toMatchObject({ temperature: 0.3, maxOutputTokens: 50 });
    // The nested Agent overrides temperature and inherits instructions and maxOutputTokens.
    expect(inner.doStreamCalls[0]!).toMatchObject({ temperature: 0.9, maxOutputTokens: 50 });
    expect(inner.doStreamCalls[0]!.prompt[0]).toMatchObject({ role: "system", content: "outer" });
  });

  it("renders render functions when the sequence reaches them, branching on an earlier result", async () => {
    const model = scriptedModel(["yes", "branch taken"]);
    const result = await start(
      <Agent model={model}>
        <Step id="decide" prompt="yes or no?" />
        {(ctx) =>
          ctx.steps.decide === "yes" ? <Step id="yes" prompt="go" /> : <Step id="no" run={() => "skipped"} />
        }
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ decide: "yes", yes: "branch taken" });
  });

  it("runs plain function steps with `run`", async () => {
    const result = await start(
      <>
        <Step id="a" run={() => 2} />
        <Step id="b" run={async (ctx) => (ctx.steps.a as number) * 21} />
      </>,
    ).result;
    expect(result.steps).toEqual({ a: 2, b: 42 });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it("sums usage over every model call and records it per call and per step", async () => {
    const model = scriptedModel([
      { text: "one", usage: { inputTokens: 5, outputTokens: 7 } },
      { text: "two", usage: { inputTokens: 11, outputTokens: 13 } },
    ]);
    const result = await start(
      <Agent model={model}>
        <Step id="a" prompt="x" />
        <Step id="b" prompt="y" />
      </Agent>,
    ).result;
    expect(result.usage).toEqual({ inputTokens: 16, outputTokens: 20, totalTokens: 36 });
    const calls = find(result.trace, (node) => node.kind === "model-call");
    expect(calls.map((call) => (call as { usage?: unknown }).usage)).toEqual([
      { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
      { inputTokens: 11, outputTokens: 13, totalTokens: 24 },
    ]);
    expect(calls[0]).toMatchObject({ status: "done", finishReason: "stop", model: { provider: "june-test", modelId: "scripted" } });
    const step = find(result.trace, (node) => node.kind === "step" && node.name === "b")[0] as StepNode;
    expect(step).toMatchObject({ usage: { totalTokens: 24 }, partialText: "two", result: "two", status: "done" });
  });

  it("parses structured output from a zod schema, a jsonSchema() and an Output spec", async () => {
    const model = scriptedModel([
      { text: ['{"title":"Hi",', '"tags":["a"]}'] },
      '{"n":3}',
      '{"ok":true}',
    ]);
    const result = await start(
      <Agent model={model}>
        <Step id="zod" prompt="x" output={z.object({ title: z.string(), tags: z.array(z.string()) })} />
        <Step
          id="json"
          prompt="y"
          output={jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } }, required: ["n"] })}
        />
        <Step id="spec" prompt="z" output={Output.object({ schema: z.object({ ok: z.boolean() }) })} />
      </Agent>,
    ).result;
    expect(result.steps).toEqual({ zod: { title: "Hi", tags: ["a"] }, json: { n: 3 }, spec: { ok: true } });
    expect(model.doStreamCalls[0]!.responseFormat).toMatchObject({ type: "json" });
  });

  it("fails a step whose reply does not match its output schema", async () => {
    const model = scriptedModel(['{"title":1}']);
    const run = start(
      <Agent model={model}>
        <Step id="bad" prompt="x" output={z.object({ title: z.string() })} />
      </Agent>,
    );
    await expect(run.result).rejects.toMatchObject({ name: "RunError", result: { status: "error" } });
  });

  it("marks the step node with the Step's stream prop", async () => {
    const model = scriptedModel(["x"]);
    const result = await start(
      <Agent model={model}>
        <Step id="reply" stream prompt="x" />
      </Agent>,
    ).result;
    const step = find(result.trace, (node) => node.kind === "step")[0] as StepNode;
    expect(step.stream).toBe(true);
  });
});
