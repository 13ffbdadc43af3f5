import {
  AbstractChat,
  DefaultChatTransport,
  jsonSchema,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  tool,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type ModelMessage,
  type UIMessage,
} from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

/**
 * The handler over a real workflow chat: `agentResponder` running `<Agent>`/`<Step>`/`<Tool>` on a scripted
 * model, with a tool that needs approval and whose input and output carry credentials.
 */

const OPENAI_KEY = "sk-proj-Zy9XwV8uT7sR6qP5oN4mL3kJ2iH1gF0e";
const API_KEY = "plain-secret-value-42";
const SECRETS = [OPENAI_KEY, API_KEY];

function workflowChat() {
  const ran: { env: string; apiKey: string }[] = [];
  const model = scriptedModel([
    {
      text: "Deploying now.",
      toolCalls: [{ toolName: "deploy", input: { env: "staging", apiKey: API_KEY, note: `with ${OPENAI_KEY}` } }],
    },
    { text: "Deployed to staging." },
    { text: ["Staging ", "is ", "live."], delay: 5 },
  ]);
  const deploy = tool({
    description: "Deploy to an environment",
    inputSchema: jsonSchema<{ env: string; apiKey: string; note?: string }>({
      type: "object",
      properties: { env: { type: "string" }, apiKey: { type: "string" }, note: { type: "string" } },
      required: ["env", "apiKey"],
    }),
    needsApproval: true,
    execute: async ({ env, apiKey }) => {
      ran.push({ env, apiKey });
      // A key-shaped value in free text is masked; a plain value only where its key says it is a credential.
      return { message: `deployed to ${env} using ${OPENAI_KEY}`, apiKey };
    },
  });
  function Engineer({ messages, input }: { messages: ModelMessage[]; input: string }) {
    return (
      <Agent model={model} instructions="You ship code.">
        <Tool name="deploy" value={deploy} />
        <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
        <Step id="reply" stream prompt={(ctx) => `Tell the user: ${String(ctx.steps.work)}`} />
      </Agent>
    );
  }
  const chat = createChat({
    responder: agentResponder({
      id: "engineer",
      version: "1",
      render: ({ messages, input }) => <Engineer messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
  return { chat, ran };
}

function expectNoSecrets(bodies: string[]) {
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret);
}

describe("a workflow chat over HTTP", () => {
  it("approves a real tool call over HTTP; no key reaches any response", async () => {
    const { chat, ran } = workflowChat();
    const base = await listen(createChatHandler(chat));
    const bodies: string[] = [];
    const session = await chat.createSession();

    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "Deploy to staging" });
    const [forEvents, forText] = response.body!.tee();
    const raw = new Response(forText).text();
    const events: SseEvent[] = [];
    let turnId = "";
    for await (const event of sseEvents(new Response(forEvents))) {
      events.push(event);
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event === "approval-request") {
        expect(ran).toEqual([]);
        // The trace shows the pending call with an approval row for it.
        const rows = events.filter((e) => e.event === "run-update").at(-1)!.data.rows;
        const approvalRow = JSON.stringify(rows).includes(`"approvalId":"${event.data.request.id}"`);
        expect(approvalRow).toBe(true);
        const approved = await post(`${base}/sessions/${session.id}/turns/${turnId}/approve`, { approvalId: event.data.request.id });
        bodies.push(await approved.text());
        expect(approved.status).toBe(200);
      }
    }
    bodies.push(await raw);
    expect(ran).toEqual([{ env: "staging", apiKey: API_KEY }]);
    const end = events.at(-1)!.data;
    expect(end).toMatchObject({ type: "turn-end", status: "completed", text: "Staging is live." });
    expect(end.metadata.responder).toEqual({ kind: "agent", id: "engineer", version: "1" });
    const deltas = events.filter((e) => e.event === "text-delta").map((e) => e.data.text);
    expect(deltas.join("")).toBe("Staging is live.");
    const finalRows = JSON.stringify(events.filter((e) => e.event === "run-update").at(-1)!.data.rows);
    expect(finalRows).toContain("deploy ran");
    expect(finalRows).toContain("deployed to staging using [redacted]");
    expect(finalRows).toContain('\\"apiKey\\":\\"[redacted]\\"');

    bodies.push(await (await fetch(`${base}/turns/${turnId}/events`)).text());
    bodies.push(await (await fetch(`${base}/sessions/${session.id}`)).text());
    expectNoSecrets(bodies);
  });

  it("runs the approval round trip through the AI SDK's Chat and /ui-chat", async () => {
    const { chat, ran } = workflowChat();
    const base = await listen(createChatHandler(chat));
    const bodies: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const [a, b] = response.body!.tee();
      void new Response(b).text().then((text) => bodies.push(text));
      return new Response(a, { status: response.status, headers: response.headers });
    };
    const state: ChatState<UIMessage> = {
      status: "ready" as ChatStatus,
      error: undefined,
      messages: [],
      pushMessage(message) {
        this.messages = [...this.messages, message];
      },
      popMessage() {
        this.messages = this.messages.slice(0, -1);
      },
      replaceMessage(index, message) {
        this.messages = [...this.messages.slice(0, index), structuredClone(message), ...this.messages.slice(index + 1)];
      },
      snapshot: (thing) => structuredClone(thing),
    };
    class TestChat extends AbstractChat<UIMessage> {
      constructor(init: ChatInit<UIMessage>) {
        super({ ...init, state });
      }
    }
    const client = new TestChat({
      id: "agent-chat",
      transport: new DefaultChatTransport({ api: `${base}/ui-chat`, fetch: recordingFetch }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });

    await client.sendMessage({ text: "Deploy to staging" });
    const pending = client.lastMessage!.parts.find((p) => p.type === "dynamic-tool");
    expect(pending).toMatchObject({ state: "approval-requested", toolName: "deploy", input: { env: "staging", apiKey: "[redacted]" } });
    expect(ran).toEqual([]);

    const approvalId = pending?.type === "dynamic-tool" && pending.state === "approval-requested" ? pending.approval.id : "";
    await client.addToolApprovalResponse({ id: approvalId, approved: true });
    await expect.poll(() => client.lastMessage?.parts.find((p) => p.type === "dynamic-tool")?.state).toBe("output-available");
    await expect.poll(() => client.status).toBe("ready");

    expect(ran).toEqual([{ env: "staging", apiKey: API_KEY }]);
    const toolPart = client.lastMessage!.parts.find((p) => p.type === "dynamic-tool") as { output: unknown };
    expect(String(toolPart.output)).toContain("deployed to staging using [redacted]");
    expect(String(toolPart.output)).toContain('"apiKey":"[redacted]"');
    const text = client.lastMessage!.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text);
    expect(text.join("")).toBe("Staging is live.");
    const [turn] = await (await chat.openSession("agent-chat")).turns();
    expect(turn).toMatchObject({ status: "completed", text: "Staging is live." });
    await expect.poll(() => bodies.length).toBe(2);
    expectNoSecrets(bodies);
  });
});
