import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, Parallel, RunError, Step, Tool, start, type ApprovalRequest, type RunHandle, type ToolCallNode, type TraceNode } from "june";
import { scriptedModel } from "june/testing";

type DeployInput = { env: string };

function deployTool(needsApproval: boolean | ((input: DeployInput) => boolean) = true) {
  const execute = vi.fn(async ({ env }: DeployInput) => `deployed to ${env}`);
  const value = tool({
    description: "Deploy",
    inputSchema: jsonSchema<DeployInput>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    needsApproval,
    execute,
  });
  return { value, execute };
}

function toolCalls(tree: TraceNode): ToolCallNode[] {
  const found: ToolCallNode[] = tree.kind === "tool-call" ? [tree] : [];
  for (const child of tree.children) found.push(...toolCalls(child));
  return found;
}

/** Starts a run and resolves with its first approval request, as an observer reading `requests` at each commit would. */
function startWatching(element: Parameters<typeof start>[0]) {
  const commits: { pendingInTree: boolean; requests: number }[] = [];
  let handle!: RunHandle;
  let announce!: (request: ApprovalRequest) => void;
  const firstRequest = new Promise<ApprovalRequest>((resolve) => (announce = resolve));
  handle = start(element, {
    onUpdate: (tree) => {
      commits.push({
        pendingInTree: toolCalls(tree).some((node) => node.status === "pending"),
        requests: handle.requests.length,
      });
      if (handle.requests.length > 0) announce(handle.requests[0]!);
    },
  });
  return { run: handle, commits, firstRequest };
}

function twoCalls() {
  return scriptedModel([
    { text: "Deploying.", toolCalls: [{ toolName: "deploy", input: { env: "prod" }, toolCallId: "call-1" }] },
    "All done.",
  ]);
}

describe("approvals", () => {
  it("pauses before the tool executes; the commit that shows the call pending is the first to list the request; approve executes it", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    const { run, commits, firstRequest } = startWatching(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    );
    const request = await firstRequest;
    expect(request).toMatchObject({ stepId: "ship", toolName: "deploy", toolCallId: "call-1", input: { env: "prod" } });
    expect(execute).not.toHaveBeenCalled();
    const firstAnnounced = commits.findIndex((commit) => commit.requests > 0);
    const firstPending = commits.findIndex((commit) => commit.pendingInTree);
    expect(firstPending).toBeGreaterThanOrEqual(0);
    // No commit lists the request before one shows its row pending: whoever hears of it already has the row.
    expect(firstPending).toBe(firstAnnounced);
    expect(commits[firstPending]!.requests).toBe(1);

    expect(run.decide(request.id, { approved: true })).toEqual({ kind: "decided" });
    const result = await run.result;
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual({ env: "prod" });
    expect(result.steps.ship).toBe("All done.");
    const [node] = toolCalls(result.trace);
    expect(node).toMatchObject({
      status: "done",
      output: "deployed to prod",
      approval: { id: request.id, state: "approved" },
    });
    expect(toolCalls(result.trace)).toHaveLength(1);
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("deployed to prod");
    expect(run.requests).toEqual([]);
  });

  it("deny: the tool never executes, the model hears the reason, the node ends done/denied", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    const { run, firstRequest } = startWatching(
      <Agent model={model}>
        <Step id="ship" prompt="ship it">
          <Tool name="deploy" value={value} />
        </Step>
      </Agent>,
    );
    const request = await firstRequest;
    expect(run.decide(request.id, { approved: false, reason: "Not on a Friday" })).toEqual({ kind: "decided" });
    const result = await run.result;
    expect(execute).not.toHaveBeenCalled();
    expect(result.steps.ship).toBe("All done.");
    expect(toolCalls(result.trace)[0]).toMatchObject({
      status: "done",
      approval: { id: request.id, state: "denied", reason: "Not on a Friday" },
    });
    expect(toolCalls(result.trace)[0]!.output).toBeUndefined();
    const resumed = JSON.stringify(model.doStreamCalls[1]!.prompt);
    expect(resumed).toContain("execution-denied");
    expect(resumed).toContain("Not on a Friday");
  });

  it("returns false for an unknown id and for a second decision", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    const { run, firstRequest } = startWatching(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    );
    expect(run.decide("nope", { approved: true })).toEqual({ kind: "not-pending" });
    expect(run.decide("nope", { approved: false })).toEqual({ kind: "not-pending" });
    const request = await firstRequest;
    expect(run.decide(request.id, { approved: false })).toEqual({ kind: "decided" });
    expect(run.decide(request.id, { approved: true })).toEqual({ kind: "not-pending" });
    expect(run.decide(request.id, { approved: false })).toEqual({ kind: "not-pending" });
    await run.result;
    expect(execute).not.toHaveBeenCalled();
  });

  it("withdraws the request on cancel: the run ends canceled and the tool never executes", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    const { run, firstRequest } = startWatching(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    );
    const request = await firstRequest;
    run.cancel();
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error).toBeInstanceOf(RunError);
    expect(error.result.status).toBe("canceled");
    expect(run.requests).toEqual([]);
    expect(run.decide(request.id, { approved: true })).toEqual({ kind: "not-pending" });
    expect(execute).not.toHaveBeenCalled();
    expect(model.callCount).toBe(1);
    expect(toolCalls(error.result.trace)[0]!.status).toBe("canceled");
  });

  it("withdraws the request when the run times out while it waits", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    const run = start(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
      { timeout: 40 },
    );
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error.result.status).toBe("error");
    expect((error.cause as Error).name).toBe("TimeoutError");
    expect(run.requests).toEqual([]);
    expect(execute).not.toHaveBeenCalled();
  });

  it("withdraws a request when its step fails (a sibling failure aborts it)", async () => {
    const model = twoCalls();
    const { value, execute } = deployTool();
    let handle!: RunHandle;
    const failLater = async () => {
      while (handle.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      throw new Error("sibling broke");
    };
    handle = start(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Parallel>
          <Step id="ship" prompt="ship it" />
          <Step id="other" run={failLater} />
        </Parallel>
      </Agent>,
    );
    const error = (await handle.result.catch((e: unknown) => e)) as RunError;
    expect((error.cause as Error).message).toBe("sibling broke");
    expect(handle.requests).toEqual([]);
    expect(execute).not.toHaveBeenCalled();
  });

  it("asks only when a needsApproval function says so", async () => {
    const model = scriptedModel([
      { toolCalls: [{ toolName: "deploy", input: { env: "staging" } }] },
      { toolCalls: [{ toolName: "deploy", input: { env: "prod" } }] },
      "done",
    ]);
    const { value, execute } = deployTool((input) => input.env === "prod");
    const { run, firstRequest } = startWatching(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship it" />
      </Agent>,
    );
    const request = await firstRequest;
    expect(request.input).toEqual({ env: "prod" });
    expect(execute).toHaveBeenCalledTimes(1);
    run.decide(request.id, { approved: true });
    const result = await run.result;
    expect(execute).toHaveBeenCalledTimes(2);
    expect(result.steps.ship).toBe("done");
    expect(toolCalls(result.trace).map((node) => node.approval?.state)).toEqual([undefined, "approved"]);
  });
});
