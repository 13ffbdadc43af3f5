import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, RenderError, Step, Tool, start, type RunCheckpoint, type RunHandle, type TraceNode } from "june";
import { agentResponder, createChat, memoryStore, projectChatTrace, type ChatTraceRow } from "june/chat";
import { scriptedModel } from "june/testing";

const topicSchema = jsonSchema<{ topic: string }>({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] });

/** A two-step researcher: it outlines, then fetches with a tool that needs approval and sums up. */
function researcher() {
  const fetchPage = vi.fn(async ({ url }: { url: string }) => `page at ${url}: the sky scatters blue light`);
  const model = scriptedModel(
    [
      { text: "Outline: light, air.", usage: { inputTokens: 3, outputTokens: 2 } },
      { text: "Fetching.", toolCalls: [{ toolName: "fetchPage", input: { url: "https://example.com/sky" }, toolCallId: "sub-call-1" }], usage: { inputTokens: 4, outputTokens: 3 } },
      { text: "Summary: Rayleigh scattering.", usage: { inputTokens: 5, outputTokens: 4 } },
    ],
    { modelId: "researcher" },
  );
  const fetchTool = tool({
    description: "Fetch a page",
    inputSchema: jsonSchema<{ url: string }>({ type: "object", properties: { url: { type: "string" } }, required: ["url"] }),
    needsApproval: true,
    execute: fetchPage,
  });
  const Researcher = ({ topic }: { topic: string }) => (
    <Agent model={model} name="Researcher">
      <Tool name="fetchPage" value={fetchTool} />
      <Step id="outline" prompt={`Make an outline of ${topic}`} />
      <Step id="notes" prompt={(ctx) => `Research ${topic} following: ${String(ctx.steps.outline)}`} />
    </Agent>
  );
  return { Researcher, fetchPage, model };
}

/** Calls the research tool, then answers from what the prompt holds. */
function parentModel() {
  return scriptedModel(
    ({ index, options }) =>
      index === 0
        ? { text: "Let me research.", toolCalls: [{ toolName: "research", input: { topic: "the sky" }, toolCallId: "call-research" }], usage: { inputTokens: 10, outputTokens: 1 } }
        : { text: JSON.stringify(options.prompt).includes("Summary: Rayleigh scattering.") ? "It is Rayleigh scattering." : "I could not find out.", usage: { inputTokens: 20, outputTokens: 5 } },
    { modelId: "parent" },
  );
}

/** Calls `research` once, then says `then` when the prompt holds `expected`. */
function callsResearch(expected: string, then: string) {
  return scriptedModel(({ index, options }) =>
    index === 0 ? { toolCalls: [{ toolName: "research", input: { topic: "x" }, toolCallId: "c1" }] } : JSON.stringify(options.prompt).includes(expected) ? then : "??",
  );
}

function findAll(tree: TraceNode, test: (node: TraceNode) => boolean): TraceNode[] {
  const out = test(tree) ? [tree] : [];
  for (const child of tree.children) out.push(...findAll(child, test));
  return out;
}

function rowsOf(rows: readonly ChatTraceRow[], out: ChatTraceRow[] = []): ChatTraceRow[] {
  for (const row of rows) {
    out.push(row);
    rowsOf(row.children, out);
  }
  return out;
}

describe("<Tool agent>: a workflow as a tool", () => {
  it("in a chat turn: one request naming the sub-agent, the tool runs once, rows nest, usage adds up, the reply uses the result", async () => {
    const { Researcher, fetchPage } = researcher();
    const model = parentModel();
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        id: "front",
        render: ({ input }) => (
          <Agent model={model}>
            <Tool name="research" description="Research a topic" inputSchema={topicSchema} agent={({ topic }) => <Researcher topic={topic} />} />
            <Step id="answer" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.answer),
      }),
    });
    const session = await chat.createSession();
    const turn = session.send("Why is the sky blue?");
    const requests: string[] = [];
    let nestedRows: ChatTraceRow[] = [];
    for await (const event of turn) {
      if (event.type === "approval-request") {
        requests.push(event.request.stepId);
        expect(turn.requests.map((request) => request.stepId)).toEqual(["answer/research/notes"]);
        expect(turn.approve(event.request.id)).toBe(true);
      }
      if (event.type === "run-update" && turn.requests.length > 0) nestedRows = projectChatTrace(event.tree, { requests: turn.requests });
    }
    const result = await turn.result;
    expect(requests).toEqual(["answer/research/notes"]);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(result.text).toBe("It is Rayleigh scattering.");
    // 10+1 + 20+5 (parent) + 3+2 + 4+3 + 5+4 (researcher)
    expect(result.metadata?.usage).toEqual({ inputTokens: 42, outputTokens: 15, totalTokens: 57 });

    // While waiting: the approval row sits under fetchPage, under the sub-agent's step row, under the research row.
    const research = rowsOf(nestedRows).find((row) => row.kind === "tool" && row.toolName === "research")!;
    expect(research.children.map((row) => row.kind === "step" && row.stepId)).toEqual(["outline", "notes"]);
    const fetchRow = rowsOf(research.children).find((row) => row.kind === "tool" && row.toolName === "fetchPage")!;
    expect(fetchRow.children[0]).toMatchObject({ kind: "approval", toolName: "fetchPage" });

    // Done: the sub-agent's trace nodes are children of the research tool-call node.
    const run = (result as unknown as { run: { trace: TraceNode } }).run;
    const toolNode = findAll(run.trace, (node) => node.kind === "tool-call" && node.toolName === "research")[0]!;
    expect(toolNode).toMatchObject({ status: "done", output: "Summary: Rayleigh scattering." });
    expect(findAll(toolNode, (node) => node.kind === "step").map((node) => node.name)).toEqual(["outline", "notes"]);
    const rows = projectChatTrace(run.trace);
    const doneResearch = rowsOf(rows).find((row) => row.kind === "tool" && row.toolName === "research")!;
    expect(doneResearch.children.map((row) => row.kind === "step" && row.stepId)).toEqual(["outline", "notes"]);
    // The parent's step row lists only the parent's own calls at its level.
    expect(rows.map((row) => row.kind === "step" && row.stepId)).toEqual(["answer"]);
  });

  it("a sub-workflow's failure is the tool's error, which the calling model sees", async () => {
    const sub = scriptedModel([{ error: new Error("research backend down"), errorAt: "start" }]);
    const model = callsResearch("research backend down", "Research failed, sorry.");
    const result = await start(
      <Agent model={model}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Agent model={sub} maxRetries={0}><Step id="go" prompt="go" /></Agent>} />
        <Step id="answer" prompt="q" />
      </Agent>,
    ).result;
    expect(result.steps.answer).toBe("Research failed, sorry.");
    const node = findAll(result.trace, (n) => n.kind === "tool-call")[0]!;
    expect(node.status).toBe("error");
  });

  it("`result` picks what the model gets; cancel reaches the sub-workflow", async () => {
    const sub = scriptedModel(["one", "two"]);
    const model = callsResearch("one+two", "combined");
    const picked = vi.fn((run: { steps: Record<string, unknown>; usage: unknown }) => `${String(run.steps.a)}+${String(run.steps.b)}`);
    const result = await start(
      <Agent model={model}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Agent model={sub}><Step id="a" prompt="a" /><Step id="b" prompt="b" /></Agent>} result={picked} />
        <Step id="answer" prompt="q" />
      </Agent>,
    ).result;
    expect(result.steps.answer).toBe("combined");
    expect(picked).toHaveBeenCalledTimes(1);

    const slow = scriptedModel([{ text: ["a", "b", "c"], delay: 200 }]);
    const handle = start(
      <Agent model={scriptedModel([{ toolCalls: [{ toolName: "research", input: { topic: "x" }, toolCallId: "c1" }] }])}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Agent model={slow}><Step id="a" prompt="a" /></Agent>} />
        <Step id="answer" prompt="q" />
      </Agent>,
      { onUpdate: (tree) => { if (findAll(tree, (n) => n.kind === "model-call" && n.model.modelId !== "mock-model-id" && n.status === "running").length > 0) handle.cancel("stop"); } },
    );
    const failed = await handle.result.catch((error: { result: { status: string; trace: TraceNode } }) => error.result);
    expect(failed.status).toBe("canceled");
    expect(findAll(failed.trace, (n) => n.kind === "step" && n.name === "a")[0]!.status).toBe("canceled");
  });

  it("steer input reaches a running sub-agent", async () => {
    const sub = scriptedModel(({ options }) => (JSON.stringify(options.prompt).includes("use metric") ? "12 km" : { text: ["About ", "seven ", "miles ", "or so."], delay: 150 }));
    const model = callsResearch("12 km", "It is 12 km.");
    let steered = false;
    const handle = start(
      <Agent model={model}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Agent model={sub}><Step id="measure" prompt="How far?" /></Agent>} />
        <Step id="answer" prompt="q" />
      </Agent>,
      {
        onUpdate: (tree) => {
          const writing = findAll(tree, (n) => n.kind === "step" && n.name === "measure" && n.partialText.length > 0).length > 0;
          if (writing && !steered) {
            steered = true;
            handle.steer("use metric");
          }
        },
      },
    );
    const result = await handle.result;
    expect(steered).toBe(true);
    expect(findAll(result.trace, (n) => n.kind === "tool-call")[0]).toMatchObject({ output: expect.stringContaining("12 km") });
    expect(result.steps.answer).toBe("It is 12 km.");
  });

  it("a sub-workflow that cannot render fails the run with its RenderError (a fault in the workflow, not the model's to handle)", async () => {
    const model = callsResearch("never", "never");
    const error = await start(
      <Agent model={model}>
        <Tool name="research" inputSchema={topicSchema} agent={() => <Step id="loose" prompt="no model in scope" />} />
        <Step id="answer" prompt="q" />
      </Agent>,
    ).result.catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(RenderError);
    expect(String((error as Error).message)).toMatch(/no model in scope/);
  });

  it("bad props are a RenderError naming the tool", () => {
    expect(() => start(<Agent model={scriptedModel("x")}><Tool name="r" inputSchema={topicSchema} agent={"nope" as never} /><Step id="s" prompt="p" /></Agent>)).toThrow(RenderError);
    expect(() => start(<Agent model={scriptedModel("x")}><Tool name="r" agent={() => null} inputSchema={undefined as never} /><Step id="s" prompt="p" /></Agent>)).toThrow(/<Tool name="r">: `inputSchema`/);
  });

  it("durable: a sub-agent waiting on approval resumes inside the sub-workflow from the checkpoint; its finished step does not run again", async () => {
    const { Researcher, fetchPage, model: subModel } = researcher();
    const model = parentModel();
    const workflow = (
      <Agent model={model}>
        <Tool name="research" inputSchema={topicSchema} agent={({ topic }) => <Researcher topic={topic} />} />
        <Step id="prepare" run={() => "ready"} />
        <Step id="answer" prompt="Why is the sky blue?" />
      </Agent>
    );
    let saved: RunCheckpoint | undefined;
    let first!: RunHandle;
    first = start(workflow, {
      onCheckpoint: (checkpoint) => {
        saved = checkpoint;
        if (Object.values(checkpoint.waiting).some((state) => state.requests.length > 0)) first.cancel("process stopped");
      },
    });
    await first.result.catch(() => {});
    expect(Object.keys(saved!.waiting).sort()).toEqual(["answer", "answer/research/notes"]);
    expect(fetchPage).not.toHaveBeenCalled();
    const parentCalls = model.callCount;
    const subCalls = subModel.callCount;
    expect([parentCalls, subCalls]).toEqual([1, 2]);

    // Another "process": a fresh run from the JSON checkpoint.
    const checkpoint = JSON.parse(JSON.stringify(saved)) as RunCheckpoint;
    const resumed = start(workflow, { checkpoint, onCheckpoint: () => {} });
    await resumed.restored;
    expect(resumed.requests.map((request) => [request.id, request.stepId])).toEqual([[checkpoint.waiting["answer/research/notes"]!.requests[0]!.id, "answer/research/notes"]]);
    resumed.decide(resumed.requests[0]!.id, { approved: true });
    const result = await resumed.result;
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(result.steps.answer).toBe("It is Rayleigh scattering.");
    // Neither the parent's first call nor the sub-agent's finished "outline" step ran again: one call each.
    expect(model.callCount - parentCalls).toBe(1);
    expect(subModel.callCount - subCalls).toBe(1);
    expect(result.usage.totalTokens).toBe(57);
  });
});
