import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { createChat, type Chat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { approvalResponder, SECRETS } from "./__fixtures__/approval-responder.js";
import { listen } from "./__fixtures__/servers.js";

/** A framework-free `Chat` from the AI SDK (what `useChat` wraps), with plain in-memory state. */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), structuredClone(message), ...this.messages.slice(index + 1)];
  };
  snapshot = <T,>(thing: T): T => structuredClone(thing);
}

class TestChat extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new MemoryChatState() });
  }
}

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return chunks;
    chunks.push(next.value);
  }
}

/** The assistant message the chunks build, continuing `message` when given. */
async function assemble(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream, ...(message && { message }) })) last = state;
  return last!;
}

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

async function setup(chat: Chat) {
  const base = await listen(createChatHandler(chat));
  // Every response body, so the test can check none holds a credential.
  const bodies: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const [a, b] = response.body!.tee();
    void new Response(b).text().then((text) => bodies.push(text));
    return new Response(a, { status: response.status, headers: response.headers });
  };
  const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat`, fetch: recordingFetch });
  return { base, transport, bodies };
}

const send = (transport: DefaultChatTransport<UIMessage>, chatId: string, messages: UIMessage[]) =>
  transport.sendMessages({ chatId, messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });

describe("POST /ui-chat with the AI SDK's DefaultChatTransport", () => {
  it("streams a model chat's reply as text chunks into a June session", async () => {
    const model = scriptedModel([{ text: ["Hello ", "there!"] }, { text: ["Again."] }]);
    const chat = createChat({ model });
    const { transport } = await setup(chat);

    const chunks = await collect(await send(transport, "chat-1", [user("u1", "Hi")]));
    expect(chunks.map((c) => c.type)).toEqual(["start", "start-step", "text-start", "text-delta", "text-delta", "text-end", "finish-step", "finish"]);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    const message = await assemble(chunks);
    expect(message.role).toBe("assistant");
    expect(message.parts.filter((p) => p.type === "text")).toEqual([expect.objectContaining({ type: "text", text: "Hello there!", state: "done" })]);

    // The chat id is the session; the next message is its second turn, answered with the first in context.
    const second = await assemble(await collect(await send(transport, "chat-1", [user("u1", "Hi"), message, user("u2", "More")])));
    expect(second.parts.find((p) => p.type === "text")).toMatchObject({ text: "Again." });
    const turns = await (await chat.openSession("chat-1")).turns();
    expect(turns.map((t) => [t.input, t.text])).toEqual([
      ["Hi", "Hello there!"],
      ["More", "Again."],
    ]);
    expect(JSON.stringify(model.doStreamCalls[1].prompt)).toContain("Hello there!");
  });

  it("pauses on a tool approval and continues the same message once the client answers", async () => {
    const chat = createChat({ responder: approvalResponder() });
    const { transport, bodies } = await setup(chat);

    const first = await collect(await send(transport, "chat-approve", [user("u1", "Deploy")]));
    expect(first.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    const input = first.find((c) => c.type === "tool-input-available");
    expect(input).toMatchObject({ toolCallId: "call-0-0", toolName: "deploy", dynamic: true });
    expect((input as { input: Record<string, unknown> }).input).toMatchObject({ env: "staging", apiKey: "[redacted]" });
    expect(first.find((c) => c.type === "tool-approval-request")).toEqual({
      type: "tool-approval-request",
      approvalId: "approval-0-0",
      toolCallId: "call-0-0",
    });
    const paused = await assemble(first);
    const toolPart = paused.parts.find((p) => p.type === "dynamic-tool");
    expect(toolPart).toMatchObject({ state: "approval-requested", toolName: "deploy", approval: { id: "approval-0-0" } });
    expect(paused.parts.find((p) => p.type === "text")).toMatchObject({ text: "Checking. " });
    // The turn still runs, waiting for the decision.
    expect((await chat.openSession("chat-approve")).currentTurn?.status).toBe("running");

    // What `addToolApprovalResponse({ id, approved: true })` does to the part, then the resend.
    const answered: UIMessage = {
      ...paused,
      parts: paused.parts.map((p) =>
        p.type === "dynamic-tool" && p.state === "approval-requested"
          ? { ...p, state: "approval-responded", approval: { id: p.approval.id, approved: true } }
          : p,
      ),
    };
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [user("u1", "Deploy"), answered] })).toBe(true);
    const rest = await collect(await send(transport, "chat-approve", [user("u1", "Deploy"), answered]));
    expect(rest[0]).toEqual({ type: "start", messageId: paused.id });
    expect(rest.find((c) => c.type === "tool-output-available")).toMatchObject({ toolCallId: "call-0-0" });
    const final = await assemble(rest, answered);
    expect(final.id).toBe(paused.id);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    const text = final.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("");
    expect(text).toBe("Checking. Deployed 1. Done.");
    // Every tool call settled: the client does not resend.
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [user("u1", "Deploy"), final] })).toBe(false);

    const [turn] = await (await chat.openSession("chat-approve")).turns();
    expect(turn).toMatchObject({ status: "completed", text: "Checking. Deployed 1. Done." });
    await expect.poll(() => bodies.length).toBe(2);
    for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret);
  });

  it("round-trips approvals through the AI SDK's own Chat with addToolApprovalResponse", async () => {
    const chat = createChat({ responder: approvalResponder({ calls: 2 }) });
    const { transport } = await setup(chat);
    const client = new TestChat({
      id: "chat-auto",
      transport,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });

    const pendingApproval = () => {
      const part = client.lastMessage?.parts.find((p) => p.type === "dynamic-tool" && p.state === "approval-requested");
      return part?.type === "dynamic-tool" && part.state === "approval-requested" ? part.approval.id : undefined;
    };

    await client.sendMessage({ text: "Deploy twice" });
    expect(client.status).toBe("ready");
    expect(pendingApproval()).toBe("approval-0-0");

    await client.addToolApprovalResponse({ id: "approval-0-0", approved: true });
    await expect.poll(() => pendingApproval()).toBe("approval-0-1");
    await expect.poll(() => client.status).toBe("ready");

    await client.addToolApprovalResponse({ id: "approval-0-1", approved: false, reason: "once is enough" });
    await expect.poll(() => client.lastMessage?.parts.some((p) => p.type === "text" && p.text.includes("Done."))).toBe(true);
    await expect.poll(() => client.status).toBe("ready");

    expect(client.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const tools = client.lastMessage!.parts.filter((p) => p.type === "dynamic-tool");
    expect(tools.map((p) => p.state)).toEqual(["output-available", "output-denied"]);
    const text = client.lastMessage!.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("");
    expect(text).toBe("Checking. Deployed 1. Not deployed: once is enough. Done.");
    const [turn] = await (await chat.openSession("chat-auto")).turns();
    expect(turn).toMatchObject({ status: "completed", text });
  });

  it("refuses bad ui-chat bodies with a 4xx JSON error", async () => {
    const chat = createChat({ model: scriptedModel([]) });
    const { base } = await setup(chat);
    const call = async (body: unknown) => {
      const response = await fetch(`${base}/ui-chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { error: string } };
    };
    expect(await call({ messages: [user("u", "hi")] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/"id"/) } });
    expect(await call({ id: "c", messages: [] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/messages/) } });
    expect(await call({ id: "c", messages: "hi" })).toMatchObject({ status: 400 });
    expect(await call({ id: "c", messages: [{ role: "user" }] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/parts/) } });
    expect(await call({ id: "c", messages: [{ role: "user", parts: [] }] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/no text/) } });
    expect(await call({ id: "bad id!", messages: [user("u", "hi")] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/Invalid session id/) } });
    expect(await call({ id: "c", trigger: "regenerate-message", messages: [user("u", "hi")] })).toMatchObject({ status: 400 });
    const assistant = { id: "a", role: "assistant", parts: [{ type: "text", text: "hello" }] };
    expect(await call({ id: "c", messages: [assistant] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/approval/) } });
    const orphan = {
      id: "a",
      role: "assistant",
      parts: [{ type: "dynamic-tool", toolName: "x", toolCallId: "t", state: "approval-responded", input: {}, approval: { id: "ap", approved: true } }],
    };
    expect(await call({ id: "c", messages: [orphan] })).toMatchObject({ status: 409 });
  });
});
