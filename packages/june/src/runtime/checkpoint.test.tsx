import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { getErrorMessage } from "@ai-sdk/provider";
import {
  Agent,
  Catch,
  CheckpointMismatchError,
  Parallel,
  RunError,
  Step,
  StepResultNotSerializableError,
  Tool,
  start,
  type ApprovalRequest,
  type RunCheckpoint,
  type RunHandle,
  type TraceNode,
  type WorkflowNode,
} from "june";
import { scriptedModel, type ScriptEntry } from "june/testing";

type DeployInput = { env: string };

function deployTool() {
  const execute = vi.fn(async ({ env }: DeployInput) => `deployed to ${env}`);
  const value = tool({
    description: "Deploy",
    inputSchema: jsonSchema<DeployInput>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    needsApproval: true,
    execute,
  });
  return { value, execute };
}

const deployCall = (env: string, toolCallId: string): ScriptEntry => ({
  text: "Deploying.",
  toolCalls: [{ toolName: "deploy", input: { env }, toolCallId }],
});

/** Starts a run that saves checkpoints; `waiting(n)` resolves once the run lists `n` requests and their checkpoint is saved. */
function startSaving(element: WorkflowNode, options: { checkpoint?: RunCheckpoint } = {}) {
  const saved: RunCheckpoint[] = [];
  let handle!: RunHandle;
  const listeners: (() => void)[] = [];
  const notify = () => listeners.splice(0).forEach((f) => f());
  handle = start(element, {
    ...options,
    onCheckpoint: (checkpoint) => {
      saved.push(checkpoint);
      notify();
    },
    onUpdate: notify,
  });
  const waiting = (n: number) =>
    new Promise<RunCheckpoint>((resolve) => {
      const check = () => {
        const last = saved.at(-1);
        const pending = last ? Object.values(last.waiting).flatMap((w) => w.requests.filter((r) => !r.decision)) : [];
        if (handle.requests.length >= n && pending.length >= n) resolve(last!);
        else listeners.push(check);
      };
      check();
    });
  return { run: handle, saved, waiting };
}

/** Stops a run the way a dead process would: nothing more of it matters. */
async function abandon(run: RunHandle) {
  run.cancel("the process died");
  await run.result.catch(() => {});
}

describe("runtime checkpoints", () => {
  it("saves finished steps and the waiting step's messages and requests; a run from the checkpoint skips the finished step and executes the tool once on approval", async () => {
    const deploy = deployTool();
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="plan" prompt="plan it" />
        <Step id="ship" prompt={(ctx) => `ship: ${String(ctx.steps.plan)}`} />
      </Agent>
    );
    const first = scriptedModel(["The plan.", deployCall("prod", "call-1")]);
    const one = startSaving(flow(first));
    const checkpoint = await one.waiting(1);
    expect(JSON.parse(JSON.stringify(checkpoint))).toEqual(checkpoint);
    expect(checkpoint.completed).toEqual(["plan"]);
    expect(checkpoint.steps).toEqual({ plan: "The plan." });
    expect(checkpoint.waiting.ship!.requests).toEqual([
      { id: one.run.requests[0]!.id, toolName: "deploy", toolCallId: "call-1", input: { env: "prod" } },
    ]);
    const roles = checkpoint.waiting.ship!.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant"]);
    expect(checkpoint.usage.totalTokens).toBeGreaterThan(0);
    const requestId = one.run.requests[0]!.id;
    await abandon(one.run);
    expect(deploy.execute).not.toHaveBeenCalled();

    const second = scriptedModel(["Shipped."]);
    const two = startSaving(flow(second), { checkpoint });
    await two.run.restored;
    expect(two.run.requests).toEqual([{ id: requestId, stepId: "ship", toolName: "deploy", toolCallId: "call-1", input: { env: "prod" } }]);
    expect(two.run.decide(requestId, { approved: true })).toEqual({ kind: "decided" });
    const result = await two.run.result;
    expect(result.steps).toEqual({ plan: "The plan.", ship: "Shipped." });
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    // Only the continuation was asked of the model: the finished step was not run again.
    expect(second.callCount).toBe(1);
    const last = second.doStreamCalls[0]!.prompt;
    expect(last.at(-1)).toMatchObject({ role: "tool" });
    expect(result.usage.totalTokens).toBeGreaterThan(checkpoint.usage.totalTokens);
    // Before the approved call executed, the checkpoint marked it started.
    const started = two.saved.find((c) => c.waiting.ship?.requests[0]?.started);
    expect(started?.waiting.ship!.requests[0]).toMatchObject({ decision: { approved: true }, started: true });
    expect(two.saved.at(-1)!.waiting).toEqual({});
  });

  it("a denial after resume never executes the tool", async () => {
    const deploy = deployTool();
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>
    );
    const one = startSaving(flow(scriptedModel([deployCall("prod", "c1")])));
    const checkpoint = await one.waiting(1);
    await abandon(one.run);
    const two = startSaving(flow(scriptedModel(["Not deployed."])), { checkpoint });
    await two.run.restored;
    expect(two.run.decide(two.run.requests[0]!.id, { approved: false, reason: "not today" })).toEqual({ kind: "decided" });
    const result = await two.run.result;
    expect(result.steps.ship).toBe("Not deployed.");
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("an approved call that may have begun is asked again with retry: true and never runs without a new approval", async () => {
    const deploy = deployTool();
    let release!: () => void;
    deploy.execute.mockImplementationOnce(() => new Promise<string>((resolve) => (release = () => resolve("late"))));
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>
    );
    const one = startSaving(flow(scriptedModel([deployCall("prod", "c1"), "never"])));
    await one.waiting(1);
    const id = one.run.requests[0]!.id;
    one.run.decide(id, { approved: true });
    await vi.waitFor(() => expect(deploy.execute).toHaveBeenCalledTimes(1));
    const checkpoint = one.saved.at(-1)!;
    expect(checkpoint.waiting.ship!.requests[0]).toMatchObject({ started: true });
    await abandon(one.run);
    release();

    const model = scriptedModel(["Done again."]);
    const two = startSaving(flow(model), { checkpoint });
    await two.run.restored;
    expect(two.run.requests).toEqual([expect.objectContaining({ id, retry: true })]);
    await new Promise((r) => setTimeout(r, 20));
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    expect(model.callCount).toBe(0);
    two.run.decide(id, { approved: true });
    await two.run.result;
    expect(deploy.execute).toHaveBeenCalledTimes(2);
  });

  it("an approved call's outcome is stored as soon as it returns, before the next model call; a run from that checkpoint neither asks for it nor runs it again", async () => {
    const deploy = deployTool();
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>
    );
    // The model call after the tool: the process "dies" there (the call never ends).
    let atNextCall: RunCheckpoint | undefined;
    let reached!: () => void;
    const nextCall = new Promise<void>((resolve) => (reached = resolve));
    const first = scriptedModel(({ index }) => {
      if (index === 0) return deployCall("prod", "c1");
      atNextCall = one.saved.at(-1);
      reached();
      return new Promise<ScriptEntry>(() => {});
    });
    const one = startSaving(flow(first));
    await one.waiting(1);
    const id = one.run.requests[0]!.id;
    one.run.decide(id, { approved: true });
    await nextCall;
    await abandon(one.run);
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    expect(atNextCall!.waiting.ship!.requests).toEqual([
      { id, toolName: "deploy", toolCallId: "c1", input: { env: "prod" }, decision: { approved: true }, started: true, output: { type: "text", value: "deployed to prod" } },
    ]);

    const second = scriptedModel(["Shipped."]);
    const two = startSaving(flow(second), { checkpoint: atNextCall! });
    await two.run.restored;
    expect(two.run.requests).toEqual([]);
    expect((await two.run.result).steps.ship).toBe("Shipped.");
    expect(deploy.execute).toHaveBeenCalledTimes(1);
    // The model answers from the stored outcome.
    const results = second.doStreamCalls[0]!.prompt.flatMap((m) => (m.role === "tool" ? m.content : []));
    expect(results).toEqual([expect.objectContaining({ type: "tool-result", toolCallId: "c1", output: { type: "text", value: "deployed to prod" } })]);
    const nodes = (function all(node: TraceNode): TraceNode[] {
      return [node, ...node.children.flatMap(all)];
    })((await two.run.result).trace);
    const node = nodes.find((c) => c.kind === "tool-call");
    expect(node).toMatchObject({ status: "done", output: "deployed to prod", approval: { id, state: "approved" } });
  });

  it("a tool that threw keeps its error as the model was given it; a resume neither asks nor runs it again", async () => {
    const deploy = deployTool();
    deploy.execute.mockImplementationOnce(async () => {
      throw new Error("quota exceeded");
    });
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>
    );
    let atNextCall: RunCheckpoint | undefined;
    let reached!: () => void;
    const nextCall = new Promise<void>((resolve) => (reached = resolve));
    const one = startSaving(
      flow(
        scriptedModel(({ index }) => {
          if (index === 0) return deployCall("prod", "c1");
          atNextCall = one.saved.at(-1);
          reached();
          return new Promise<ScriptEntry>(() => {});
        }),
      ),
    );
    await one.waiting(1);
    one.run.decide(one.run.requests[0]!.id, { approved: true });
    await nextCall;
    await abandon(one.run);
    // As the model was given it: the AI SDK's own wording of the error (7 puts its name in front).
    expect(atNextCall!.waiting.ship!.requests[0]!.output).toEqual({ type: "error-text", value: getErrorMessage(new Error("quota exceeded")) });
    const two = startSaving(flow(scriptedModel(["It failed."])), { checkpoint: atNextCall! });
    await two.run.restored;
    expect(two.run.requests).toEqual([]);
    expect((await two.run.result).steps.ship).toBe("It failed.");
    expect(deploy.execute).toHaveBeenCalledTimes(1);
  });

  it("an approved call's outcome that cannot be stored fails the run", async () => {
    const deploy = deployTool();
    let requests: ApprovalRequest[] = [];
    const run = start(
      <Agent model={scriptedModel([deployCall("prod", "c1"), "Done."])}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>,
      {
        onCheckpoint: (checkpoint) => {
          if (checkpoint.waiting.ship?.requests[0]?.output) return Promise.reject(new Error("store down"));
        },
        onUpdate: () => void (requests = [...run.requests]),
      },
    );
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    run.decide(requests[0]!.id, { approved: true });
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error.cause).toMatchObject({ message: "store down" });
    expect(deploy.execute).toHaveBeenCalledTimes(1);
  });

  it("a decision saved before its call began is applied on resume without asking again", async () => {
    const deploy = deployTool();
    const flow = (model: ReturnType<typeof scriptedModel>) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy.value} />
        <Step id="ship" prompt="ship" />
      </Agent>
    );
    const one = startSaving(flow(scriptedModel([deployCall("prod", "c1")])));
    const waiting = await one.waiting(1);
    await abandon(one.run);
    const decided: RunCheckpoint = structuredClone(waiting);
    decided.waiting.ship!.requests[0]!.decision = { approved: false, reason: "no" };
    const two = startSaving(flow(scriptedModel(["Skipped."])), { checkpoint: decided });
    expect((await two.run.result).steps.ship).toBe("Skipped.");
    expect(deploy.execute).not.toHaveBeenCalled();
  });

  it("Parallel: finished branches are skipped, each waiting branch is restored with its request", async () => {
    const deploy = deployTool();
    const calls: string[] = [];
    const model = (script: (prompt: string) => ScriptEntry) =>
      scriptedModel(({ options }) => {
        const first = options.prompt.find((m) => m.role === "user")!;
        const text = Array.isArray(first.content) ? (first.content[0] as { text: string }).text : String(first.content);
        calls.push(text);
        return script(text);
      });
    const flow = (m: ReturnType<typeof scriptedModel>) => (
      <Agent model={m}>
        <Tool name="deploy" value={deploy.value} />
        <Parallel>
          <Step id="notes" prompt="notes" />
          <Step id="eu" prompt="eu" />
          <Step id="us" prompt="us" />
        </Parallel>
      </Agent>
    );
    const one = startSaving(flow(model((p) => (p === "notes" ? "Notes." : deployCall(p, `call-${p}`)))));
    const checkpoint = await one.waiting(2);
    await vi.waitFor(() => expect(one.saved.at(-1)!.completed).toContain("notes"));
    const last = one.saved.at(-1)!;
    expect(Object.keys(last.waiting).sort()).toEqual(["eu", "us"]);
    void checkpoint;
    await abandon(one.run);
    calls.length = 0;
    const two = startSaving(flow(model((p) => `Shipped ${p}.`)), { checkpoint: last });
    await two.run.restored;
    expect(two.run.requests.map((r) => r.stepId).sort()).toEqual(["eu", "us"]);
    for (const request of two.run.requests) two.run.decide(request.id, { approved: true });
    const result = await two.run.result;
    expect(result.steps).toEqual({ notes: "Notes.", eu: "Shipped eu.", us: "Shipped us." });
    expect(deploy.execute).toHaveBeenCalledTimes(2);
    expect(calls.sort()).toEqual(["eu", "us"]);
  });

  it("Catch: a step that failed is not run again; the fallback that waited resumes", async () => {
    const deploy = deployTool();
    const flow = (m: ReturnType<typeof scriptedModel>, risky: () => unknown) => (
      <Agent model={m}>
        <Tool name="deploy" value={deploy.value} />
        <Catch fallback={(error) => <Step id="fallback" prompt={`recover from ${(error as Error).message}`} />}>
          <Step id="risky" run={risky} />
        </Catch>
      </Agent>
    );
    const risky = vi.fn(() => {
      throw new Error("disk full");
    });
    const one = startSaving(flow(scriptedModel([deployCall("staging", "c1")]), risky));
    const checkpoint = await one.waiting(1);
    expect(checkpoint.failed).toEqual({ risky: { name: "Error", message: "disk full" } });
    await abandon(one.run);
    const model = scriptedModel(["Recovered."]);
    const two = startSaving(flow(model, risky), { checkpoint });
    await two.run.restored;
    two.run.decide(two.run.requests[0]!.id, { approved: true });
    const result = await two.run.result;
    expect(result.steps.fallback).toBe("Recovered.");
    expect(risky).toHaveBeenCalledTimes(1);
    expect(deploy.execute).toHaveBeenCalledTimes(1);
  });

  it("a step result that is not JSON-safe fails the step at once, naming it and where", async () => {
    const later = vi.fn(() => "later");
    const run = start(
      <>
        <Step id="when" run={() => ({ at: new Date(0) })} />
        <Step id="after" run={later} />
      </>,
      { onCheckpoint: () => {} },
    );
    const error = await run.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    const cause = (error as RunError).cause;
    expect(cause).toBeInstanceOf(StepResultNotSerializableError);
    expect(cause).toMatchObject({ stepId: "when", path: "result.at" });
    expect((cause as Error).message).toContain('Step "when"');
    expect(later).not.toHaveBeenCalled();
    // Without checkpoints, anything goes, as before.
    expect((await start(<Step id="when" run={() => new Date(0)} />).result).steps.when).toBeInstanceOf(Date);
  });

  it("a checkpoint whose waiting step the workflow no longer has is a CheckpointMismatchError; a malformed one a TypeError", async () => {
    const checkpoint: RunCheckpoint = {
      version: 1,
      completed: [],
      steps: {},
      failed: {},
      waiting: { gone: { messages: [{ role: "user", content: "x" }], requests: [], calls: 1 } },
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    expect(() => start(<Step id="other" run={() => 1} />, { checkpoint })).toThrow(CheckpointMismatchError);
    const dynamic = start(<>{() => <Step id="other" run={() => 1} />}</>, { checkpoint });
    const error = await dynamic.result.catch((e: unknown) => e);
    expect((error as RunError).cause).toBeInstanceOf(CheckpointMismatchError);
    expect(() => start(<Step id="other" run={() => 1} />, { checkpoint: { version: 2 } as never })).toThrow(TypeError);
  });

  it("a failing onCheckpoint fails the run", async () => {
    const run = start(<Step id="a" run={() => 1} />, {
      onCheckpoint: () => Promise.reject(new Error("store down")),
    });
    const error = (await run.result.catch((e: unknown) => e)) as RunError;
    expect(error.cause).toMatchObject({ message: "store down" });
  });
});
