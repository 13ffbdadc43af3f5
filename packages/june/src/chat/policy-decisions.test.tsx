import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, Step, Tool, type ToolApprovalPolicy, type TraceNode } from "june";
import { agentResponder, createChat, memoryStore, projectChatTrace, TurnSuspendedError, type ChatStore } from "june/chat";
import { parseTurnStreamEvent, turnStream, type TurnStreamEvent } from "june/stream";
import type { ChatTraceRow } from "june/chat";
import { scriptedModel } from "june/testing";

type Input = { env: string };
const schema = jsonSchema<Input>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] });

/** A chat whose one step calls `deploy` (prod) and `notify` at once; `notify` needs a person. */
function twoToolChat(store: ChatStore, toolApproval: ToolApprovalPolicy | undefined, durable = false) {
  const deploy = vi.fn(async ({ env }: Input) => `deployed ${env}`);
  const notify = vi.fn(async ({ env }: Input) => `notified ${env}`);
  // Asks for both tools until the prompt answers them (the same across a restart).
  const model = scriptedModel(({ options }) =>
    (options.prompt as { role: string }[]).at(-1)?.role !== "tool"
      ? {
          toolCalls: [
            { toolName: "deploy", input: { env: "prod" }, toolCallId: "c-deploy" },
            { toolName: "notify", input: { env: "prod" }, toolCallId: "c-notify" },
          ],
        }
      : "Done.",
  );
  const chat = createChat({
    store,
    ...(toolApproval ? { toolApproval } : {}),
    responder: agentResponder({
      id: "two-tools",
      ...(durable ? { durable: { suspendAfterMs: 30 } } : {}),
      render: ({ input }) => (
        <Agent model={model}>
          <Tool name="deploy" value={tool({ description: "Deploy", inputSchema: schema, execute: deploy })} />
          <Tool name="notify" value={tool({ description: "Notify", inputSchema: schema, needsApproval: true, execute: notify })} />
          <Step id="ship" prompt={input} />
        </Agent>
      ),
      reply: (result) => String(result.steps.ship),
    }),
  });
  return { chat, deploy, notify, model };
}

const policy: ToolApprovalPolicy = { deploy: (input: Input) => (input.env === "prod" ? { type: "denied", reason: "Prod needs a ticket" } : "approved") };

function deployRow(tree: TraceNode): unknown {
  const find = (rows: readonly ChatTraceRow[]): ChatTraceRow | undefined => {
    for (const row of rows) {
      if (row.kind === "tool" && row.toolName === "deploy") return row;
      const inner = find(row.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(projectChatTrace(tree, { requests: [] }));
}

describe("decisions by policy", () => {
  it("reach the turn stream as policy-decision events (never as requests), schema-checked", async () => {
    const { chat, deploy } = twoToolChat(memoryStore(), policy);
    const session = await chat.createSession();
    const turn = session.send("ship");
    const events: TurnStreamEvent[] = [];
    for await (const { event } of turnStream(turn)) {
      events.push(parseTurnStreamEvent(JSON.parse(JSON.stringify(event))));
      if (event.type === "approval-request") turn.approve(event.request.id);
    }
    await turn.result;
    expect(deploy).not.toHaveBeenCalled();
    expect(events.filter((e) => e.type === "policy-decision")).toEqual([
      { type: "policy-decision", decision: { id: expect.any(String), stepId: "ship", toolName: "deploy", toolCallId: "c-deploy", approved: false, reason: "Prod needs a ticket" } },
    ]);
    expect(events.filter((e) => e.type === "approval-request").map((e) => (e as { request: { toolName: string } }).request.toolName)).toEqual(["notify"]);
  });

  it("remember for this session is a decision by policy: journaled so, and a policy-decision event", async () => {
    const store = memoryStore();
    const { chat } = twoToolChat(store, { deploy: "approved" });
    const session = await chat.createSession();
    const first = session.send("ship");
    for await (const event of first) if (event.type === "approval-request") first.approve(event.request.id, { remember: "session" });
    await first.result;
    const second = session.send("ship again");
    const kinds: string[] = [];
    for await (const event of second) kinds.push(event.type);
    await second.result;
    expect(kinds).not.toContain("approval-request");
    const approvals = (await store.read(session.id)).filter((e) => e.type === "approval" && e.turnId === second.id && e.toolName === "notify");
    expect(approvals).toMatchObject([{ approved: true, reason: "approved for the session", decidedBy: "policy" }]);
    expect(kinds.filter((k) => k === "policy-decision")).toHaveLength(2);
  });

  it("a durable turn restored from its checkpoint keeps decidedBy: policy on the decided call", async () => {
    const store = memoryStore();
    const one = twoToolChat(store, policy, true);
    const session = await one.chat.createSession({ id: "s-policy" });
    const turn = session.send("ship");
    for await (const _ of turn) void _;
    expect(await turn.result.catch((e: unknown) => e)).toBeInstanceOf(TurnSuspendedError);

    const two = twoToolChat(store, policy, true);
    const again = await two.chat.openSession("s-policy");
    const live = await again.resume(turn.id);
    expect(live.requests.map((r) => r.toolName)).toEqual(["notify"]);
    let tree: TraceNode | undefined;
    const reading = (async () => {
      for await (const event of live) if (event.type === "run-update") tree = event.tree as TraceNode;
    })();
    live.approve(live.requests[0]!.id);
    await live.result;
    await reading;
    expect(two.deploy).not.toHaveBeenCalled();
    expect(two.notify).toHaveBeenCalledTimes(1);
    expect(deployRow(tree!)).toMatchObject({ approval: { state: "denied", reason: "Prod needs a ticket", decidedBy: "policy" } });
  });
});
