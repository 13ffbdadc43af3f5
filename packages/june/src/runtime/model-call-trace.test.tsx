import { APICallError } from "@ai-sdk/provider";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, Step, Tool, start, type ModelCallNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

function modelCalls(tree: TraceNode): ModelCallNode[] {
  const own = tree.kind === "model-call" ? [tree] : [];
  return [...own, ...tree.children.flatMap(modelCalls)];
}

describe("a step's model calls in the trace", () => {
  it("keep their prompt and response as bounded, redacted excerpts", async () => {
    const model = scriptedModel([
      { text: "Looking it up. ", toolCalls: [{ toolName: "lookup", input: { q: "roses" } }] },
      "Roses are red.",
    ]);
    const lookup = tool({ inputSchema: z.object({ q: z.string() }), execute: async () => "red" });
    const result = await start(
      <Agent model={model} instructions="Answer in one line.">
        <Step id="reply" prompt={`What colour are roses? token sk-proj-ABCDEFGHIJ0123456789xyz ${"x".repeat(5_000)}`}>
          <Tool name="lookup" value={lookup} />
        </Step>
      </Agent>,
    ).result;
    const [first, second] = modelCalls(result.trace);
    expect(first!.prompt![0]).toEqual({ role: "system", text: "Answer in one line." });
    expect(first!.prompt![1]!.role).toBe("user");
    expect(first!.prompt![1]!.text.length).toBeLessThanOrEqual(300);
    expect(first!.prompt![1]!.text).not.toContain("sk-proj-ABCDEFGHIJ0123456789xyz");
    expect(first!.response).toEqual([
      { role: "assistant", text: 'Looking it up. \nlookup({"q":"roses"})' },
      { role: "tool", text: "lookup → red" },
    ]);
    // The second call was sent the first one's tool call and result.
    expect(second!.prompt!.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second!.response).toEqual([{ role: "assistant", text: "Roses are red." }]);
  });

  it("show each request the AI SDK retried", async () => {
    let calls = 0;
    const error = () =>
      new APICallError({ message: "Overloaded", url: "http://model.test", requestBodyValues: {}, statusCode: 529, responseHeaders: { "retry-after-ms": "5" }, isRetryable: true });
    const model = scriptedModel(() => (calls++ === 0 ? { error: error(), errorAt: "start" } : "Fine."));
    const result = await start(
      <Agent model={model}>
        <Step id="reply" prompt="hi" />
      </Agent>,
    ).result;
    const [call] = modelCalls(result.trace);
    expect(call).toMatchObject({ status: "done", attempt: 2 });
    expect(call!.failedAttempts).toHaveLength(1);
    expect(call!.failedAttempts![0]).toMatchObject({ attempt: 1, error: { name: "AI_APICallError", message: "Overloaded" } });
  });
});
