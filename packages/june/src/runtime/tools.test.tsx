import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, Catch, Parallel, Step, Tool, start, type ToolCallNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function makeTool(name: string) {
  const execute = vi.fn(async (input: { q?: string }) => `${name}:${input.q ?? ""}`);
  return {
    execute,
    value: tool({
      description: name,
      inputSchema: jsonSchema<{ q?: string }>({ type: "object", properties: { q: { type: "string" } } }),
      execute,
    }),
  };
}

function toolNames(call: { tools?: { name: string }[] }): string[] {
  return (call.tools ?? []).map((t) => t.name).sort();
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  const found: ToolCallNode[] = tree.kind === "tool-call" ? [tree] : [];
  for (const child of tree.children) found.push(...toolCalls(child));
  return found;
}

describe("tool scope", () => {
  it("an Agent's tools serve every step below it, whatever their order; a Step's tools serve it alone", async () => {
    const model = scriptedModel(["1", "2", "3", "4"]);
    const search = makeTool("search");
    const fetchTool = makeTool("fetch");
    const local = makeTool("local");
    await start(
      <Agent model={model}>
        <Step id="before" prompt="x" />
        <Parallel>
          <Catch fallback={null}>
            <Step id="nested" prompt="y" />
          </Catch>
        </Parallel>
        <Step id="own" prompt="z">
          <Tool name="local" value={local.value} />
        </Step>
        <Agent model={model}>
          <Tool name="fetch" value={fetchTool.value} />
          <Step id="inner" prompt="w" />
        </Agent>
        <Tool name="search" value={search.value} />
      </Agent>,
    ).result;
    const calls = model.doStreamCalls as { tools?: { name: string }[] }[];
    expect(calls.map(toolNames)).toEqual([["search"], ["search"], ["local", "search"], ["fetch", "search"]]);
  });

  it("records tool calls with input and output, and loops until the model stops", async () => {
    const model = scriptedModel([
      { text: "Looking.", toolCalls: [{ toolName: "search", input: { q: "june" }, toolCallId: "t1" }] },
      "Found it.",
    ]);
    const search = makeTool("search");
    const result = await start(
      <Agent model={model}>
        <Tool name="search" value={search.value} />
        <Step id="s" prompt="find" />
      </Agent>,
    ).result;
    expect(result.steps.s).toBe("Found it.");
    expect(search.execute).toHaveBeenCalledTimes(1);
    expect(toolCalls(result.trace)).toEqual([
      expect.objectContaining({ toolName: "search", toolCallId: "t1", input: { q: "june" }, output: "search:june", status: "done" }),
    ]);
    const step = result.trace.children[0]!.children[0]!;
    expect(step.children.map((node) => node.kind)).toEqual(["model-call", "tool-call", "model-call"]);
    expect(step).toMatchObject({ partialText: "Looking.Found it." });
  });

  it("stops at maxSteps model calls", async () => {
    const model = scriptedModel(() => ({ text: "again", toolCalls: [{ toolName: "search", input: {} }] }));
    const search = makeTool("search");
    const result = await start(
      <Agent model={model}>
        <Tool name="search" value={search.value} />
        <Step id="s" prompt="loop" maxSteps={3} />
      </Agent>,
    ).result;
    expect(model.callCount).toBe(3);
    expect(result.steps.s).toBe("again");
  });

  it("a tool that throws marks its node error and the model hears of it; the step goes on", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "flaky", input: {} }] }, "recovered"]);
    const flaky = tool({
      inputSchema: jsonSchema<Record<string, never>>({ type: "object" }),
      execute: async (): Promise<string> => {
        throw new Error("network down");
      },
    });
    const result = await start(
      <Agent model={model}>
        <Tool name="flaky" value={flaky} />
        <Step id="s" prompt="x" />
      </Agent>,
    ).result;
    expect(result.steps.s).toBe("recovered");
    expect(toolCalls(result.trace)[0]).toMatchObject({ status: "error", error: { message: "network down" } });
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("network down");
  });

  it("passes the model to streamText unchanged", async () => {
    const model = scriptedModel(["x"]);
    const spy = vi.spyOn(model, "doStream");
    await start(
      <Agent model={model}>
        <Step id="s" prompt="x" />
      </Agent>,
    ).result;
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.contexts[0]).toBe(model);
  });
});
