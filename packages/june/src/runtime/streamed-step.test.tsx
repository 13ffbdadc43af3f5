import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, AskUser, RunError, Step, StreamedStepToolError, Tool, start } from "june";
import { agentResponder, createChat, memoryStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { streamSafe } from "./streamed-step.js";

/** A `deploy` tool whose `execute` is a spy, optionally asking for approval. */
function deployTool(needsApproval = false) {
  const execute = vi.fn(async (_input: { target: string }) => "deployed to staging");
  const value = tool({
    description: "Deploy the docs",
    inputSchema: jsonSchema<{ target: string }>({ type: "object", properties: { target: { type: "string" } }, required: ["target"] }),
    needsApproval,
    execute,
  });
  return { execute, value };
}

const CALLS_DEPLOY = { text: "Deploying now.", toolCalls: [{ toolName: "deploy", input: { target: "staging" } }] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the run to fail");
}

const RULE = "a streamed step calls no tools of the workflow's; call them in an earlier step that is not streamed";

describe("a streamed step calls no tool of the workflow's (issue 41)", () => {
  it("a call of a <Tool> after streamed text fails the run with StreamedStepToolError before the tool's execute runs", async () => {
    const deploy = deployTool();
    const model = scriptedModel([CALLS_DEPLOY, "Deployed."]);
    const run = start(
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="reply" stream prompt="Deploy the docs" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect(RunError.isInstance(error)).toBe(true);
    const cause = (error as RunError).cause;
    expect(StreamedStepToolError.isInstance(cause)).toBe(true);
    expect(cause).toMatchObject({ stepId: "reply", toolName: "deploy" });
    expect((cause as Error).message).toBe(
      `Step "reply" is streamed (<Step stream>) and its model called the tool "deploy", so the tool did not run: ${RULE}`,
    );
    expect(deploy.execute).not.toHaveBeenCalled();
    // One model call: the step did not go on to a second.
    expect(model.doStreamCalls.length).toBe(1);
  });

  it("a tool that needs approval is not offered for approval, and never runs", async () => {
    const deploy = deployTool(true);
    const run = start(
      <Agent model={scriptedModel([CALLS_DEPLOY, "Deployed."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="reply" stream prompt="Deploy the docs" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect(StreamedStepToolError.isInstance((error as RunError).cause)).toBe(true);
    expect(run.requests).toEqual([]);
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("a call before the step streamed any text is refused too: the tool never runs and the step says nothing more", async () => {
    const deploy = deployTool();
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { target: "staging" } }] }, "Deployed."]);
    const run = start(
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="reply" stream prompt="Deploy the docs" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect((error as RunError).cause).toMatchObject({ name: "StreamedStepToolError", stepId: "reply", toolName: "deploy" });
    expect(deploy.execute).not.toHaveBeenCalled();
    expect(model.doStreamCalls.length).toBe(1);
  });

  it("a tool that needs approval, called before any text, is offered for no approval and never runs", async () => {
    const deploy = deployTool(true);
    const run = start(
      <Agent model={scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { target: "staging" } }] }, "Deployed."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="reply" stream prompt="Deploy the docs" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect(StreamedStepToolError.isInstance((error as RunError).cause)).toBe(true);
    expect(run.requests).toEqual([]);
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("a <Tool agent> (no execute of its own) called by a streamed step is refused before its workflow runs", async () => {
    const inner = scriptedModel(["Researched."]);
    const model = scriptedModel([{ toolCalls: [{ toolName: "research", input: { topic: "docs" } }] }, "Done."]);
    const topicSchema = jsonSchema<{ topic: string }>({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] });
    const run = start(
      <Agent model={model}>
        <Tool name="research" description="Researches a topic" inputSchema={topicSchema} agent={() => <Agent model={inner}><Step id="dig" prompt="Research" /></Agent>} />
        <Step id="reply" stream prompt="Research the docs" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect((error as RunError).cause).toMatchObject({ name: "StreamedStepToolError", toolName: "research" });
    expect(inner.doStreamCalls.length).toBe(0);
  });

  it("the tool in an earlier step that is not streamed runs, and the streamed step tells its outcome", async () => {
    const deploy = deployTool();
    const result = await start(
      <Agent model={scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { target: "staging" } }] }, "Deployed to staging.", "It is live on staging."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="work" prompt="Deploy the docs" />
        <Step id="reply" stream prompt={(ctx) => `Tell the user: ${String(ctx.steps.work)}`} />
      </Agent>,
    ).result;
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    expect(result.steps).toMatchObject({ work: "Deployed to staging.", reply: "It is live on staging." });
  });

  it("two calls in one model call: neither runs", async () => {
    const deploy = deployTool();
    const run = start(
      <Agent model={scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { target: "a" } }, { toolName: "deploy", input: { target: "b" } }] }, "Both."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="reply" stream prompt="Deploy twice" />
      </Agent>,
    );
    const error = await failure(run.result);
    expect(StreamedStepToolError.isInstance((error as RunError).cause)).toBe(true);
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("the same tool in a step that is not streamed runs, as before", async () => {
    const deploy = deployTool();
    const result = await start(
      <Agent model={scriptedModel([CALLS_DEPLOY, "Deployed.", "It is done."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="work" prompt="Deploy the docs" />
        <Step id="reply" stream prompt="Say it is done" />
      </Agent>,
    ).result;
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    expect(result.steps.work).toBe("Deployed.");
  });

  it("over a chat: the turn fails naming the rule, and the tool never ran", async () => {
    const deploy = deployTool();
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={scriptedModel([CALLS_DEPLOY, "Deployed."])}>
            <Tool name="deploy" value={deploy.value} />
            <Step id="reply" stream prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    });
    const turn = (await chat.createSession()).send("Deploy the docs");
    const error = await failure(turn.result);
    expect(String((error as Error).message)).toContain(`its model called the tool "deploy", so the tool did not run: ${RULE}`);
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("June's own ask_user still works in a streamed step: the question is asked and its answer is the tool's result", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "ask_user", input: { question: "Which environment?" }, toolCallId: "q1" }] }, "Deploying to staging."]);
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <AskUser />
            <Step id="reply" stream prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    });
    const turn = (await chat.createSession()).send("Ship the docs");
    let streamed = "";
    for await (const event of turn) {
      if (event.type === "input-request") turn.answer(event.request.id, "staging");
      if (event.type === "text-delta") streamed += event.text;
    }
    expect((await turn.result).text).toBe("Deploying to staging.");
    expect(streamed).toBe("Deploying to staging.");
  });

  it("June's own handoff still works in a streamed step: the turn completes and records the handoff", async () => {
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        id: "desk",
        start: "front",
        agents: {
          front: {
            description: "greets the user",
            render: ({ input, handoff }) => (
              <Agent model={scriptedModel([{ toolCalls: [{ toolName: "handoff", input: { agent: "editor", reason: "an edit" } }] }, "The editor will take it from here."])}>
                {handoff}
                <Step id="reply" stream prompt={input} />
              </Agent>
            ),
            reply: (result) => String(result.steps.reply),
            stream: { step: "reply" },
          },
          editor: {
            description: "edits copy",
            render: ({ input }) => (
              <Agent model={scriptedModel(["Send me the headline."])}>
                <Step id="reply" stream prompt={input} />
              </Agent>
            ),
            reply: (result) => String(result.steps.reply),
            stream: { step: "reply" },
          },
        },
      }),
    });
    const result = await (await chat.createSession()).send("Fix my headline").result;
    // The editor answers the handed-off message in the same turn (the front's second script entry is never asked).
    expect(result.text).toBe("Send me the headline.");
    expect(result.metadata.agent).toEqual({ id: "editor" });
    expect(result.metadata.handoff).toEqual({ from: "front", to: "editor", reason: "an edit" });
  });

  it("a tool of June's own marked streamSafe (memory's update_memory) runs in a streamed step, and the model is called again", async () => {
    const execute = vi.fn(async (_input: { memory: string }) => "saved");
    const updateMemory = streamSafe(
      tool({
        description: "Keep a note about the user",
        inputSchema: jsonSchema<{ memory: string }>({ type: "object", properties: { memory: { type: "string" } }, required: ["memory"] }),
        execute,
      }),
    );
    const model = scriptedModel([{ toolCalls: [{ toolName: "update_memory", input: { memory: "metric units" } }] }, "Noted: metric."]);
    const result = await start(
      <Agent model={model}>
        <Tool name="update_memory" value={updateMemory} />
        <Step id="reply" stream prompt="I use metric units" />
      </Agent>,
    ).result;
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.steps.reply).toBe("Noted: metric.");
    expect(model.doStreamCalls.length).toBe(2);
  });
});
