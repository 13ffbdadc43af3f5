import { Output } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, outputOf, Step, start, type StepNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

const card = Output.object({ schema: z.object({ title: z.string(), tags: z.array(z.string()) }) });

function stepNode(tree: TraceNode, name: string): StepNode | undefined {
  if (tree.kind === "step" && tree.name === name) return tree;
  for (const child of tree.children) {
    const found = stepNode(child, name);
    if (found) return found;
  }
  return undefined;
}

describe("a step's structured output (issue 41)", () => {
  it("the step's trace node carries partialOutput as it streams, and outputOf reads the checked result", async () => {
    const partials: unknown[] = [];
    const run = start(
      <Agent model={scriptedModel({ text: ['{"title":"Rel', 'ease notes",', '"tags":["docs"', ',"api"]}'], delay: 5 })}>
        <Step id="card" prompt="Make a card" output={card} />
      </Agent>,
      {
        onUpdate: (tree) => {
          const node = stepNode(tree, "card");
          if (node?.partialOutput !== undefined && JSON.stringify(node.partialOutput) !== JSON.stringify(partials.at(-1))) partials.push(node.partialOutput);
          if (node) expect(node.structured).toBe(true);
        },
      },
    );
    const result = await run.result;
    expect(partials.length).toBeGreaterThanOrEqual(3);
    expect(partials[0]).toEqual({ title: "Rel" });
    expect(partials.at(-1)).toEqual({ title: "Release notes", tags: ["docs", "api"] });
    expect(outputOf(result, "card", card)).toEqual({ title: "Release notes", tags: ["docs", "api"] });
    expect(() => outputOf(result, "nope", card)).toThrow('the run has no result for step "nope"');
  });

  it("a step without an output has no partialOutput", async () => {
    let seen: StepNode | undefined;
    await start(
      <Agent model={scriptedModel("plain")}>
        <Step id="text" prompt="Say" />
      </Agent>,
      { onUpdate: (tree) => void (seen = stepNode(tree, "text")) },
    ).result;
    expect(seen?.partialOutput).toBeUndefined();
    expect(seen?.structured).toBeUndefined();
  });
});
