import { describe, expect, it, vi } from "vitest";
import { RunError } from "../../../runtime/errors.js";
import type { ApprovalRequest, RunHandle, RunResult, StartOptions, StepNode, ToolCallNode, TraceNode } from "../../../runtime/types.js";
import { AgentReplyError, StreamMismatchError } from "./errors.js";
import { agentResponder, type AgentTurnInfo } from "./agent-responder.js";
import type { RespondOptions } from "../../types.js";
import { collect } from "../../../testing/streams.js";

const MODEL = { provider: "june-test", modelId: "scripted" };
const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

function step(name: string, partialText: string, children: TraceNode[] = [], partial: Partial<StepNode> = {}): StepNode {
  return { id: `step-${name}`, kind: "step", name, status: "running", partialText, model: MODEL, children, ...partial };
}
function tree(...children: TraceNode[]): TraceNode {
  return { id: "run-0", kind: "run", name: "run", status: "running", children };
}
function waitingTool(approvalId: string): ToolCallNode {
  return {
    id: `tool-${approvalId}`,
    kind: "tool-call",
    name: "deploy",
    status: "pending",
    toolName: "deploy",
    toolCallId: `call-${approvalId}`,
    input: { env: "prod" },
    children: [],
    approval: { id: approvalId, state: "pending" },
  };
}

/** A hand-driven run: the test commits snapshots, lists requests and settles the result. */
function fakeRun() {
  let onUpdate: ((tree: TraceNode) => void) | undefined;
  let settle!: { resolve(result: RunResult): void; reject(error: unknown): void };
  const result = new Promise<RunResult>((resolve, reject) => (settle = { resolve, reject }));
  const requests: ApprovalRequest[] = [];
  const calls: { element: unknown; options: StartOptions; turn: AgentTurnInfo }[] = [];
  const handle: RunHandle = {
    id: "run-0",
    result,
    get requests() {
      return requests;
    },
    decide: vi.fn((id: string) => (requests.some((r) => r.id === id) ? { kind: "decided" as const } : { kind: "not-pending" as const })),
    cancel: vi.fn(),
    steer: vi.fn(),
  };
  return {
    handle,
    calls,
    requests,
    startRun: (element: unknown, options: StartOptions, turn: AgentTurnInfo): RunHandle => {
      calls.push({ element, options, turn });
      onUpdate = options.onUpdate;
      return handle;
    },
    commit(snapshot: TraceNode) {
      onUpdate!(snapshot);
    },
    done(steps: Record<string, unknown>, trace: TraceNode, usage = USAGE) {
      settle.resolve({ id: "run-0", status: "done", steps, trace, usage });
    },
    fail(error: unknown) {
      settle.reject(error);
    },
  };
}

function turnOptions(partial: Partial<RespondOptions> = {}): RespondOptions {
  return { input: "hi", messages: [], signal: new AbortController().signal, sessionId: "s1", turnId: "t1", ...partial };
}


function Noop(_props: { label?: string }): null {
  return null;
}
const element = () => <Noop />;

describe("agentResponder", () => {
  it("is an agent responder carrying its id and version", () => {
    const responder = agentResponder({ id: "engineer", version: "1", render: element, reply: () => "" });
    expect(responder).toMatchObject({ kind: "agent", id: "engineer", version: "1" });
    expect(Object.keys(agentResponder({ render: element, reply: () => "" })).sort()).toEqual(["kind", "respond"]);
  });

  it("rejects bad options with clear errors", () => {
    expect(() => agentResponder({ render: undefined as never, reply: () => "" })).toThrow(/render/);
    expect(() => agentResponder({ render: element, reply: "x" as never })).toThrow(/reply/);
    expect(() => agentResponder({ render: element, reply: () => "", stream: { step: "" } })).toThrow(/stream\.step/);
    expect(() => agentResponder({ render: element, reply: () => "", run: { concurrency: 0 } })).toThrow(/concurrency/);
    expect(() => agentResponder({ render: element, reply: () => "", run: { timeout: -1 } })).toThrow(/timeout/);
  });

  it("renders with the turn, starts the run with signal, onUpdate and run options, and replies", async () => {
    const run = fakeRun();
    const render = vi.fn(element);
    const responder = agentResponder({ render, reply: (r) => String(r.steps.reply), run: { concurrency: 2, timeout: 1000 }, startRun: run.startRun });
    const signal = new AbortController().signal;
    const messages = [{ role: "user" as const, content: "earlier" }];
    const execution = responder.respond(turnOptions({ input: "now", messages, signal }));
    expect(render).toHaveBeenCalledWith({ input: "now", message: { role: "user", content: "now" }, messages, memory: { working: undefined, recalled: [] }, sessionId: "s1", turnId: "t1" });
    await Promise.resolve();
    expect(run.calls).toHaveLength(1);
    expect(run.calls[0].turn).toEqual({ sessionId: "s1", turnId: "t1" });
    expect(run.calls[0].options).toMatchObject({ concurrency: 2, timeout: 1000, signal });
    expect(typeof run.calls[0].options.onUpdate).toBe("function");

    const final = tree(step("reply", "Hello", [], { status: "done" }));
    run.commit(final);
    run.done({ reply: "Hello" }, final);
    const result = await execution.result;
    expect(result.text).toBe("Hello");
    expect(result.metadata).toEqual({ model: MODEL, usage: USAGE });
    expect(result.run?.steps).toEqual({ reply: "Hello" });
    expect(await collect(execution.events)).toEqual([{ type: "run-update", tree: final }]);
  });

  it("announces each approval once, after the run-update that shows it pending, and passes decisions through", async () => {
    const run = fakeRun();
    const execution = agentResponder({ render: element, reply: () => "ok", startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    const request: ApprovalRequest = { id: "ap-1", stepId: "reply", toolName: "deploy", toolCallId: "call-ap-1", input: { env: "prod" } };
    run.requests.push(request);
    const before = tree(step("reply", ""));
    run.commit(before); // the request is listed, but no snapshot shows it pending yet
    const pending = tree(step("reply", "", [waitingTool("ap-1")]));
    run.commit(pending);
    run.commit(pending);
    expect(execution.requests).toEqual([request]);
    expect(execution.decide!("ap-1", { approved: true })).toEqual({ kind: "decided" });
    expect(run.handle.decide).toHaveBeenCalledWith("ap-1", { approved: true });
    expect(execution.decide!("nope", { approved: false, reason: "why" })).toEqual({ kind: "not-pending" });
    expect(run.handle.decide).toHaveBeenCalledWith("nope", { approved: false, reason: "why" });
    await execution.steer!("more");
    expect(run.handle.steer).toHaveBeenCalledWith("more");
    run.requests.length = 0;
    const final = tree(step("reply", "ok", [], { status: "done" }));
    run.commit(final);
    run.done({}, final);
    await execution.result;
    expect((await collect(execution.events)).map((e) => e.type)).toEqual(["run-update", "run-update", "approval-request", "run-update", "run-update"]);
  });

  it("a durable turn shows a request (in requests, as an approval-request) only once the checkpoint that lists it is stored, after a run-update of its own", async () => {
    const run = fakeRun();
    let release!: () => void;
    const onCheckpoint = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const execution = agentResponder({ render: element, reply: () => "ok", startRun: run.startRun }).respond(turnOptions({ onCheckpoint }));
    await Promise.resolve();
    const request: ApprovalRequest = { id: "ap-1", stepId: "reply", toolName: "deploy", toolCallId: "call-ap-1", input: { env: "prod" } };
    run.requests.push(request);
    const pending = tree(step("reply", "", [waitingTool("ap-1")]));
    run.commit(pending);
    expect(execution.requests).toEqual([]);
    const waiting = { messages: [], calls: 1, requests: [{ id: "ap-1", toolName: "deploy", toolCallId: "call-ap-1", input: { env: "prod" } }] };
    const saving = run.calls[0].options.onCheckpoint!({ version: 1, completed: [], steps: {}, failed: {}, waiting: { reply: waiting }, usage: USAGE });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Written, not yet stored: nobody may see it.
    expect(onCheckpoint).toHaveBeenCalledWith(expect.objectContaining({ requests: [request] }));
    expect(execution.requests).toEqual([]);
    release();
    await saving;
    expect(execution.requests).toEqual([request]);
    run.requests.length = 0;
    const final = tree(step("reply", "ok", [], { status: "done" }));
    run.commit(final);
    run.done({}, final);
    await execution.result;
    const events = await collect(execution.events);
    expect(events.map((e) => e.type)).toEqual(["run-update", "run-update", "approval-request", "run-update"]);
    expect(events[1]).toEqual({ type: "run-update", tree: pending });
  });

  it("streams the named step's new text after each run-update and sends the leftover of the reply last", async () => {
    const run = fakeRun();
    const execution = agentResponder({
      render: element,
      reply: (r) => String(r.steps.reply),
      stream: { step: "reply" },
      startRun: run.startRun,
    }).respond(turnOptions());
    await Promise.resolve();
    run.commit(tree(step("draft", "ignored draft text"), step("reply", "")));
    run.commit(tree(step("reply", "Hel")));
    run.commit(tree(step("reply", "Hel")));
    run.commit(tree(step("reply", "Hello, wo")));
    const final = tree(step("reply", "Hello, world", [], { status: "done" }));
    run.commit(final);
    run.done({ reply: "Hello, world!" }, final);
    const result = await execution.result;
    const events = await collect(execution.events);
    expect(events.map((e) => (e.type === "text-delta" ? `delta:${e.text}` : e.type))).toEqual([
      "run-update",
      "run-update",
      "delta:Hel",
      "run-update",
      "run-update",
      "delta:lo, wo",
      "run-update",
      "delta:rld",
      "delta:!",
    ]);
    const text = events.map((e) => (e.type === "text-delta" ? e.text : "")).join("");
    expect(text).toBe(result.text);
  });

  it("fails the turn when the reply contradicts what streamed", async () => {
    const run = fakeRun();
    const execution = agentResponder({ render: element, reply: () => "Goodbye", stream: { step: "reply" }, startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    const final = tree(step("reply", "Let me check", [], { status: "done" }));
    run.commit(final);
    run.done({ reply: "Goodbye" }, final);
    const error = await execution.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamMismatchError);
    expect(error).toMatchObject({ name: "StreamMismatchError", stepId: "reply", streamedChars: 12, mismatchAt: 0, toolCalls: [] });
    // No tool was involved: the hint names the reply, not tool calls (issue 41).
    expect((error as Error).message).toBe(
      'reply(result) does not continue the 12 characters step "reply" streamed (they differ at character 0). No tool was called: ' +
        "reply(result) returned other text than the step streamed (a reply that re-formats it). Return the streamed text as it is " +
        "(result.steps.reply), or drop `stream` to send the reply whole.",
    );
    expect((await collect(execution.events)).filter((e) => e.type === "text-delta")).toEqual([{ type: "text-delta", text: "Let me check" }]);
  });

  it("a mismatch in a step that called a tool names the tool and the rule", async () => {
    const run = fakeRun();
    const execution = agentResponder({ render: element, reply: () => "It is 42.", stream: { step: "reply" }, startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    const asked: ToolCallNode = { ...waitingTool("a1"), toolName: "ask_user", status: "done" };
    const final = tree(step("reply", "Let me ask.", [asked], { status: "done" }));
    run.commit(final);
    run.done({ reply: "It is 42." }, final);
    const error = await execution.result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "StreamMismatchError", toolCalls: ["ask_user"] });
    expect((error as Error).message).toContain(
      'The step called "ask_user", and its result is only its last model call\'s text: stream a step that does not call tools, and put tool calls in earlier steps.',
    );
  });

  it("fails the turn when reply returns something other than a string", async () => {
    const run = fakeRun();
    const execution = agentResponder({ id: "x", render: element, reply: (r) => r.steps.reply as string, startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    run.done({ reply: { not: "text" } }, tree());
    const error = await execution.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentReplyError);
    expect((error as Error).message).toMatch(/reply\(result\) must return a string, but it returned an object/);
  });

  it("fails the turn with the run's error and ends its events", async () => {
    const run = fakeRun();
    const execution = agentResponder({ render: element, reply: () => "x", startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    const failure = new RunError("Step research failed: boom", {
      result: { id: "run-0", status: "error", steps: {}, trace: tree(), usage: USAGE },
      cause: new Error("boom"),
    });
    run.commit(tree(step("research", "", [], { status: "error", error: { name: "Error", message: "boom" } })));
    run.fail(failure);
    await expect(execution.result).rejects.toBe(failure);
    expect((await collect(execution.events)).map((e) => e.type)).toEqual(["run-update"]);
  });

  it("fails the turn when render throws, without starting a run", async () => {
    const run = fakeRun();
    const execution = agentResponder({
      render: () => {
        throw new Error("no workflow");
      },
      reply: () => "x",
      startRun: run.startRun,
    }).respond(turnOptions());
    await expect(execution.result).rejects.toThrow("no workflow");
    expect(run.calls).toHaveLength(0);
    expect(await collect(execution.events)).toEqual([]);
  });

  it("stops the deltas once the turn is canceled", async () => {
    const run = fakeRun();
    const controller = new AbortController();
    const execution = agentResponder({ render: element, reply: () => "Hello there", stream: { step: "reply" }, startRun: run.startRun }).respond(
      turnOptions({ signal: controller.signal }),
    );
    await Promise.resolve();
    run.commit(tree(step("reply", "Hel")));
    controller.abort();
    const last = tree(step("reply", "Hello", [], { status: "canceled" }));
    run.commit(last);
    run.fail(new RunError("canceled", { result: { id: "run-0", status: "canceled", steps: {}, trace: last, usage: USAGE }, cause: new Error("canceled") }));
    await expect(execution.result).rejects.toBeInstanceOf(RunError);
    const deltas = (await collect(execution.events)).filter((e) => e.type === "text-delta");
    expect(deltas).toEqual([{ type: "text-delta", text: "Hel" }]);
  });

  it("records the model only when every step used the same one", async () => {
    const run = fakeRun();
    const execution = agentResponder({ render: element, reply: () => "x", startRun: run.startRun }).respond(turnOptions());
    await Promise.resolve();
    run.done({}, tree(step("a", "", [], { model: MODEL }), step("b", "", [], { model: { provider: "other", modelId: "m" } })));
    expect((await execution.result).metadata).toEqual({ usage: USAGE });
  });
});
