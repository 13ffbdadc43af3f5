import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, Parallel, Step, Tool, start, type RunHandle } from "june";
import { findNodes, scriptedModel } from "june/testing";


/** The role and text of each message the model received (system and tool parts summarized). */
function transcript(prompt: readonly { role: string; content: unknown }[]): string[] {
  return prompt.map((message) => {
    if (typeof message.content === "string") return `${message.role}: ${message.content}`;
    const parts = message.content as { type: string; text?: string }[];
    return `${message.role}: ${parts.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("")}`;
  });
}

describe("steer", () => {
  it("interrupts a streaming call and continues with what it wrote plus the input; the result adds up", async () => {
    const model = scriptedModel([
      { text: ["Once", " upon", " a", " time", " there", " was"], delay: 25 },
      { text: [" a short story."] },
    ]);
    let handle!: RunHandle;
    let steered = false;
    handle = start(
      <Agent model={model}>
        <Step id="story" stream prompt="Tell a long story" />
      </Agent>,
      {
        onUpdate: (tree) => {
          const step = findNodes(tree, "step")[0];
          if (!steered && step && step.partialText.length > 0) {
            steered = true;
            handle.steer("Make it short.");
          }
        },
      },
    );
    const result = await handle.result;
    const story = result.steps.story as string;
    expect(model.callCount).toBe(2);
    expect(model.doStreamCalls[0]!.abortSignal!.aborted).toBe(true);
    const written = story.slice(0, story.length - " a short story.".length);
    expect(written.length).toBeGreaterThan(0);
    expect("Once upon a time there was".startsWith(written)).toBe(true);
    expect(story.endsWith(" a short story.")).toBe(true);
    const continuation = transcript(model.doStreamCalls[1]!.prompt as never);
    expect(continuation.slice(-3)).toEqual(["user: Tell a long story", `assistant: ${written}`, "user: Make it short."]);
    const step = findNodes(result.trace, "step")[0]!;
    expect(step.partialText).toBe(story);
    const calls = findNodes(result.trace, "model-call");
    expect(calls.map((call) => call.finishReason)).toEqual(["interrupted", "stop"]);
  });

  it("with no step running, the input waits for the next step that starts", async () => {
    const model = scriptedModel(["ok"]);
    let handle!: RunHandle;
    handle = start(
      <Agent model={model}>
        <Step
          id="prepare"
          run={async () => {
            handle.steer("Use French.");
            return "ready";
          }}
        />
        <Step id="answer" prompt="Say hello" />
      </Agent>,
    );
    await handle.result;
    expect(transcript(model.doStreamCalls[0]!.prompt as never)).toEqual(["user: Say hello", "user: Use French."]);
  });

  it("a step busy with a tool takes the input at its next model call, after the tool result", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "lookup", input: {} }] }, "answer"]);
    let handle!: RunHandle;
    const lookup = tool({
      inputSchema: jsonSchema<Record<string, never>>({ type: "object" }),
      execute: async () => {
        handle.steer("Also mention the date.");
        return "42";
      },
    });
    handle = start(
      <Agent model={model}>
        <Tool name="lookup" value={lookup} />
        <Step id="q" prompt="question" />
      </Agent>,
    );
    const result = await handle.result;
    expect(result.steps.q).toBe("answer");
    const second = transcript(model.doStreamCalls[1]!.prompt as never);
    expect(second.slice(-3)).toEqual(["assistant: [tool-call]", "tool: [tool-result]", "user: Also mention the date."]);
  });

  it("input given while an approval is pending never lands after the approval response: the tool still executes", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: {} }] }, "shipped"]);
    const execute = vi.fn(async () => "deployed");
    const deploy = tool({ inputSchema: jsonSchema<Record<string, never>>({ type: "object" }), needsApproval: true, execute });
    let handle!: RunHandle;
    let decided = false;
    handle = start(
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Step id="ship" prompt="ship" />
      </Agent>,
      {
        onUpdate: () => {
          const request = handle.requests[0];
          if (request && !decided) {
            decided = true;
            handle.steer("Be careful.");
            handle.decide(request.id, { approved: true });
          }
        },
      },
    );
    const result = await handle.result;
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.steps.ship).toBe("shipped");
    const resumed = transcript(model.doStreamCalls[1]!.prompt as never);
    expect(resumed.slice(-2)).toEqual(["tool: [tool-result]", "user: Be careful."]);
  });

  it("every running step takes the input", async () => {
    const model = scriptedModel((call) => ({ text: [{ text: `reply ${call.index}`, delay: 40 }] }));
    let handle!: RunHandle;
    let steered = false;
    handle = start(
      <Agent model={model}>
        <Parallel>
          <Step id="a" prompt="a" />
          <Step id="b" prompt="b" />
        </Parallel>
      </Agent>,
      {
        onUpdate: (tree) => {
          if (!steered && findNodes(tree, "model-call").length === 2) {
            steered = true;
            handle.steer("Hurry.");
          }
        },
      },
    );
    await handle.result;
    // Each step's last call answers the input (AI SDK 6 interrupts the running calls for it, 4 calls in all;
    // AI SDK 7 may start the calls after the input arrived, which then goes into their first).
    const lastOf = new Map<string, string | undefined>();
    for (const call of model.doStreamCalls) {
      const lines = transcript(call.prompt as never);
      lastOf.set(lines.find((line) => line === "user: a" || line === "user: b")!, lines.at(-1));
    }
    expect(Object.fromEntries(lastOf)).toEqual({ "user: a": "user: Hurry.", "user: b": "user: Hurry." });
  });
});
