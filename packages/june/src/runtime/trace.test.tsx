import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { Agent, Parallel, Step, start, type StepNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function all(tree: TraceNode): TraceNode[] {
  return [tree, ...tree.children.flatMap(all)];
}

describe("trace commits", () => {
  it("coalesces a 10,000-delta reply into far fewer commits, and the text adds up", async () => {
    const deltas = Array.from({ length: 10_000 }, (_, i) => `${i % 10}`);
    const model = scriptedModel([{ text: deltas }]);
    let commits = 0;
    const run = start(
      <Agent model={model}>
        <Step id="long" prompt="go" />
      </Agent>,
      { onUpdate: () => commits++ },
    );
    const result = await run.result;
    expect(result.steps.long).toBe(deltas.join(""));
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(1_000);
    const step = all(result.trace).find((node) => node.kind === "step") as StepNode;
    expect(step.partialText).toHaveLength(10_000);
  });

  it("commits between bursts of deltas, one commit per burst rather than per delta", async () => {
    // 10,000 deltas in 50 bursts: a pause before every 200th delta.
    const deltas = Array.from({ length: 10_000 }, (_, i) => (i % 200 === 0 ? { text: "x", delay: 2 } : "x"));
    const model = scriptedModel([{ text: deltas }]);
    const lengths: number[] = [];
    const result = await start(
      <Agent model={model}>
        <Step id="long" prompt="go" />
      </Agent>,
      {
        onUpdate: (tree) => {
          const step = all(tree).find((node) => node.kind === "step") as StepNode | undefined;
          lengths.push(step?.partialText.length ?? 0);
        },
      },
    ).result;
    expect((result.steps.long as string).length).toBe(10_000);
    // Observers saw the reply grow while it streamed...
    expect(new Set(lengths.filter((n) => n > 0 && n < 10_000)).size).toBeGreaterThan(5);
    // ...at a cost of about one commit per burst, not one per delta.
    expect(lengths.length).toBeLessThan(1_000);
  });

  it("never calls onUpdate inside start(), and delivers the last commit before result settles", async () => {
    const trees: TraceNode[] = [];
    let inside = true;
    let calledInside = false;
    const run = start(<Step id="a" run={() => 1} />, {
      onUpdate: (tree) => {
        if (inside) calledInside = true;
        trees.push(tree);
      },
    });
    inside = false;
    const result = await run.result;
    expect(calledInside).toBe(false);
    expect(trees.at(-1)).toBe(result.trace);
    expect(result.trace).toMatchObject({ kind: "run", status: "done", id: run.id });
  });

  it("keeps node ids stable across snapshots and shares untouched subtrees", async () => {
    const model = scriptedModel([{ text: ["a", "b", "c"], delay: 5 }, { text: ["d", "e"], delay: 5 }]);
    const trees: TraceNode[] = [];
    const result = await start(
      <Agent model={model}>
        <Step id="one" prompt="x" />
        <Step id="two" prompt="y" />
      </Agent>,
      { onUpdate: (tree) => trees.push(tree) },
    ).result;
    expect(trees.length).toBeGreaterThan(3);
    const finalIds = new Map(all(result.trace).map((node) => [node.id, node]));
    expect(new Set(finalIds.keys()).size).toBe(finalIds.size);
    for (const tree of trees) {
      for (const node of all(tree)) {
        // A node seen earlier has the same id, kind and name at the end.
        const final = finalIds.get(node.id)!;
        expect(final).toBeDefined();
        expect([final.kind, final.name]).toEqual([node.kind, node.name]);
      }
    }
    // Once step "one" is done, later snapshots reuse the very same object for it.
    const agentOf = (tree: TraceNode) => tree.children[0]!;
    const doneOne = trees.map((tree) => agentOf(tree)?.children[0]).filter((node) => node?.status === "done");
    expect(doneOne.length).toBeGreaterThan(1);
    for (const node of doneOne) expect(node).toBe(doneOne[0]);
  });

  it("delivers frozen snapshots", async () => {
    const trees: TraceNode[] = [];
    const model = scriptedModel(["hi"]);
    await start(
      <Agent model={model}>
        <Step id="a" prompt="x" />
      </Agent>,
      { onUpdate: (tree) => trees.push(tree) },
    ).result;
    for (const tree of trees) {
      for (const node of all(tree)) {
        expect(Object.isFrozen(node)).toBe(true);
        expect(Object.isFrozen(node.children)).toBe(true);
        if ("usage" in node && node.usage) expect(Object.isFrozen(node.usage)).toBe(true);
      }
    }
    expect(() => {
      (trees[0] as { status: string }).status = "done";
    }).toThrow(TypeError);
  });

  it("nests agents, parallels and steps as the workflow nests them; model and tool calls under their step", async () => {
    const model = scriptedModel(["a", "b"]);
    const result = await start(
      <Agent model={model} name="writer">
        <Parallel>
          <Step id="a" prompt="x" />
          <Step id="b" prompt="y" />
        </Parallel>
      </Agent>,
    ).result;
    const shape = (node: TraceNode): unknown => [node.kind, node.name, node.children.map(shape)];
    expect(shape(result.trace)).toEqual([
      "run",
      "run",
      [
        [
          "agent",
          "writer",
          [["parallel", "Parallel", [["step", "a", [["model-call", "scripted", []]]], ["step", "b", [["model-call", "scripted", []]]]]]],
        ],
      ],
    ]);
    expect(result.trace.children[0]).toMatchObject({ model: { provider: "june-test", modelId: "scripted" } });
  });
});

describe("run concurrency", () => {
  it("limits model calls in flight across the run", async () => {
    const base = scriptedModel((call) => ({ text: [{ text: `r${call.index}`, delay: 15 }] }));
    let inFlight = 0;
    let max = 0;
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        inFlight++;
        max = Math.max(max, inFlight);
        const result = await base.doStream(options);
        const done = () => {
          inFlight--;
        };
        return { ...result, stream: result.stream.pipeThrough(new TransformStream({ flush: done })) };
      },
    });
    const result = await start(
      <Agent model={model}>
        <Parallel>
          {["a", "b", "c", "d", "e"].map((id) => (
            <Step key={id} id={id} prompt={id} />
          ))}
        </Parallel>
      </Agent>,
      { concurrency: 2 },
    ).result;
    expect(Object.keys(result.steps).sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(max).toBe(2);
  });

  it("without a limit, every call may be in flight at once", async () => {
    const base = scriptedModel((call) => ({ text: [{ text: `r${call.index}`, delay: 15 }] }));
    let inFlight = 0;
    let max = 0;
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        inFlight++;
        max = Math.max(max, inFlight);
        const result = await base.doStream(options);
        return { ...result, stream: result.stream.pipeThrough(new TransformStream({ flush: () => void inFlight-- })) };
      },
    });
    await start(
      <Agent model={model}>
        <Parallel>
          <Step id="a" prompt="a" />
          <Step id="b" prompt="b" />
          <Step id="c" prompt="c" />
        </Parallel>
      </Agent>,
    ).result;
    expect(max).toBe(3);
  });
});
