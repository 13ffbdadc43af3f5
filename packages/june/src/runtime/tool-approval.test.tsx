import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, RenderError, RunError, Step, Tool, start, type RunHandle, type ToolApprovalPolicy, type ToolCallNode, type TraceNode } from "june";
import { agentResponder, createChat, memoryStore, projectChatTrace } from "june/chat";
import { scriptedModel } from "june/testing";

type DeployInput = { env: string };

/** A tool with no `needsApproval` of its own: whatever asks, asks because of `toolApproval`. */
function deployTool(needsApproval?: boolean) {
  const execute = vi.fn(async ({ env }: DeployInput) => `deployed to ${env}`);
  const value = tool({
    description: "Deploy",
    inputSchema: jsonSchema<DeployInput>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    execute,
  });
  return { value, execute };
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  const found: ToolCallNode[] = tree.kind === "tool-call" ? [tree] : [];
  for (const child of tree.children) found.push(...toolCalls(child));
  return found;
}

function deployCall(env = "prod") {
  return scriptedModel([{ text: "Deploying.", toolCalls: [{ toolName: "deploy", input: { env }, toolCallId: "call-1" }] }, "All done."]);
}

/** Runs the workflow, answering every request with `answer`; records how many requests each commit listed. */
async function run(
  element: Parameters<typeof start>[0],
  answer: (handle: RunHandle, id: string) => void = () => {},
) {
  const listed: number[] = [];
  const answered = new Set<string>();
  let handle!: RunHandle;
  handle = start(element, {
    onUpdate: () => {
      listed.push(handle.requests.length);
      for (const request of handle.requests) {
        if (answered.has(request.id)) continue;
        answered.add(request.id);
        queueMicrotask(() => answer(handle, request.id));
      }
    },
  });
  const result = await handle.result;
  return { result, listed, asked: answered.size, handle };
}

describe("toolApproval", () => {
  it('"user-approval" on a tool without needsApproval asks once; approved, the tool runs once', async () => {
    const model = deployCall();
    const { value, execute } = deployTool();
    const { result, asked } = await run(
      <Agent model={model} toolApproval={{ deploy: "user-approval" }}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
      (handle, id) => handle.decide(id, { approved: true }),
    );
    expect(asked).toBe(1);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.steps.ship).toBe("All done.");
    expect(toolCalls(result.trace)[0]!.approval).toMatchObject({ state: "approved" });
    expect(toolCalls(result.trace)[0]!.approval!.decidedBy).toBeUndefined();
  });

  it("a denial by policy is never pending: the tool never runs, the trace, the run's decisions and the model say why", async () => {
    const model = deployCall();
    const { value, execute } = deployTool(true);
    const { result, listed, handle } = await run(
      <Agent model={model} toolApproval={{ deploy: { type: "denied", reason: "Deploys are frozen this week" } }}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    );
    expect(listed.every((count) => count === 0)).toBe(true);
    expect(execute).not.toHaveBeenCalled();
    expect(result.steps.ship).toBe("All done.");
    const [node] = toolCalls(result.trace);
    expect(node).toMatchObject({ status: "done", approval: { state: "denied", decidedBy: "policy", reason: "Deploys are frozen this week" } });
    expect(node!.output).toBeUndefined();
    expect(handle.policyDecisions).toEqual([
      { id: node!.approval!.id, stepId: "ship", toolName: "deploy", toolCallId: "call-1", approved: false, reason: "Deploys are frozen this week" },
    ]);
    const second = JSON.stringify(model.doStreamCalls[1]!.prompt);
    expect(second).toContain("execution-denied");
    expect(second).toContain("Deploys are frozen this week");
  });

  it("a rule of the input approves one call by policy and asks a person about another", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { toolName: "deploy", input: { env: "staging" }, toolCallId: "call-1" },
          { toolName: "deploy", input: { env: "prod" }, toolCallId: "call-2" },
        ],
      },
      "Both done.",
    ]);
    const { value, execute } = deployTool();
    const policy: ToolApprovalPolicy = {
      deploy: ({ env }: DeployInput) => (env === "staging" ? { type: "approved", reason: "staging is safe" } : "user-approval"),
    };
    const { result, asked } = await run(
      <Agent model={model} toolApproval={policy}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship both" />
      </Agent>,
      (handle, id) => handle.decide(id, { approved: true }),
    );
    expect(asked).toBe(1);
    expect(execute.mock.calls.map((call) => call[0])).toEqual([{ env: "staging" }, { env: "prod" }]);
    const [staging, prod] = toolCalls(result.trace);
    expect(staging!.approval).toMatchObject({ state: "approved", decidedBy: "policy", reason: "staging is safe" });
    expect(prod!.approval).toMatchObject({ state: "approved" });
    expect(prod!.approval!.decidedBy).toBeUndefined();
  });

  it("one function for every call; a Step's policy replaces its Agent's; not-applicable leaves the tool's own needsApproval", async () => {
    const model = deployCall();
    const { value, execute } = deployTool(true);
    const seen: string[] = [];
    const { result, asked } = await run(
      <Agent model={model} toolApproval={{ deploy: "denied" }}>
        <Tool name="deploy" value={value} />
        <Step
          id="ship"
          prompt="ship it"
          toolApproval={({ toolCall }) => {
            seen.push(`${toolCall.toolName} ${JSON.stringify(toolCall.input)}`);
            return "not-applicable";
          }}
        />
      </Agent>,
      (handle, id) => handle.decide(id, { approved: true }),
    );
    expect(seen).toEqual(['deploy {"env":"prod"}']);
    // The tool's own needsApproval: true still asks.
    expect(asked).toBe(1);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.steps.ship).toBe("All done.");
  });

  it("a status that is not one fails the step with an error naming the tool; a policy that is not an object or function fails to render", async () => {
    const model = deployCall();
    const { value, execute } = deployTool();
    const failed = await run(
      <Agent model={model} toolApproval={{ deploy: "ask" as never }}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    ).catch((error: unknown) => error);
    expect(RunError.isInstance(failed)).toBe(true);
    expect(String((failed as RunError).cause)).toContain('toolApproval for "deploy" must be one of');
    expect(execute).not.toHaveBeenCalled();
    expect(() =>
      start(
        <Agent model={model} toolApproval={"user-approval" as never}>
          <Step id="ship" prompt="ship it" />
        </Agent>,
      ),
    ).toThrow(RenderError);
  });

  it("in a chat: a denial by policy is never an approval-request; the journal's approval entry and the turn's rows say decidedBy policy", async () => {
    const model = deployCall();
    const { value, execute } = deployTool();
    const store = memoryStore();
    const chat = createChat({
      store,
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model} toolApproval={{ deploy: { type: "denied", reason: "Deploys are frozen" } }}>
            <Tool name="deploy" value={value} />
            <Step id="ship" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.ship),
      }),
    });
    const session = await chat.createSession();
    const turn = session.send("ship it");
    const kinds = new Set<string>();
    let lastTree: TraceNode | undefined;
    for await (const event of turn) {
      kinds.add(event.type);
      if (event.type === "run-update") lastTree = event.tree as TraceNode;
    }
    expect((await turn.result).text).toBe("All done.");
    expect(kinds.has("approval-request")).toBe(false);
    expect(execute).not.toHaveBeenCalled();
    const rows = JSON.stringify(projectChatTrace(lastTree!, { requests: [] }));
    expect(rows).toContain('"decidedBy":"policy"');
    expect(rows).toContain("deploy denied by policy");
    const entries = await store.read(session.id);
    expect(entries.filter((entry) => entry.type === "approval")).toMatchObject([
      { type: "approval", turnId: turn.id, toolName: "deploy", approved: false, reason: "Deploys are frozen", decidedBy: "policy" },
    ]);
  });
});
