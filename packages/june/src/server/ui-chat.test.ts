import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { createChat, type Chat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { approvalResponder, SECRETS } from "./__fixtures__/approval-responder.js";
import { listen } from "./__fixtures__/servers.js";
import { sseEvents } from "./__fixtures__/sse-client.js";
import { TestChat, textOf } from "./__fixtures__/test-chat.js";

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
    void new Response(b).text().then((text) => bodies.push(text), () => {});
    return new Response(a, { status: response.status, headers: response.headers });
  };
  const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat`, fetch: recordingFetch });
  return { base, transport, bodies };
}

const send = (transport: DefaultChatTransport<UIMessage>, chatId: string, messages: UIMessage[]) =>
  transport.sendMessages({ chatId, messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });

describe("POST /ui-chat with the AI SDK's DefaultChatTransport", () => {
  it("sends what createUIMessageStreamResponse sends, each delta with a short text-part id", async () => {
    const chat = createChat({ model: scriptedModel([{ text: ["One ", "two ", "three."] }]) });
    const base = await listen(createChatHandler(chat));
    const response = await fetch(`${base}/ui-chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "wire", messages: [user("u1", "Count")], trigger: "submit-message" }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const body = await response.text();
    const lines = body.split("\n\n").filter((line) => line !== "");
    expect(lines.every((line) => line.startsWith("data: "))).toBe(true);
    expect(lines.at(-1)).toBe("data: [DONE]");
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);
    const deltas = chunks.filter((chunk) => chunk.type === "text-delta");
    expect(deltas.map((chunk) => chunk.delta)).toEqual(["One ", "two ", "three."]);
    // One text part, its id short (it goes out with every delta) and the same on its start, deltas and end.
    const ids = new Set(chunks.flatMap((chunk) => ("id" in chunk && chunk.type.startsWith("text-") ? [chunk.id] : [])));
    expect(ids.size).toBe(1);
    expect([...ids][0]!.length).toBeLessThanOrEqual(8);
    // Each line is the chunk's JSON as the AI SDK writes it.
    for (const [i, chunk] of chunks.entries()) expect(lines[i]).toBe(`data: ${JSON.stringify(chunk)}`);
    expect((await assemble(chunks)).parts.filter((part) => part.type === "text").map((part) => (part as { text: string }).text)).toEqual(["One two three."]);
  });

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
    expect(await call({ id: "c", trigger: "regenerate-message", messages: [user("u", "hi")] })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/Nothing to regenerate/) } });
    expect(await call({ id: "c", trigger: "bogus", messages: [user("u", "hi")] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/trigger/) } });
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

describe("useChat's daily calls over real HTTP: regenerate, stop, reload", () => {
  it("regenerate() answers the last user message again on a new branch and shows the new answer", async () => {
    const chat = createChat({ model: scriptedModel(["First answer.", "Second answer.", "Follow-up."]) });
    const { transport } = await setup(chat);
    const client = new TestChat({ id: "chat-regen", transport });

    await client.sendMessage({ text: "Tell me" });
    expect(textOf(client.lastMessage)).toBe("First answer.");
    const [first] = await (await chat.openSession("chat-regen")).turns();
    // The assistant message is named after its June turn.
    expect(client.lastMessage!.id).toBe(first.id);

    await client.regenerate();
    expect(client.status).toBe("ready");
    expect(client.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(client.lastMessage)).toBe("Second answer.");

    const session = await chat.openSession("chat-regen");
    const branch = await session.turns();
    expect(branch.map((t) => [t.input, t.text])).toEqual([["Tell me", "Second answer."]]);
    const alternatives = await session.branches(branch[0].id);
    expect(alternatives.map((t) => t.text)).toEqual(["First answer.", "Second answer."]);
    expect(client.lastMessage!.id).toBe(branch[0].id);

    // The conversation goes on from the new branch.
    await client.sendMessage({ text: "And then?" });
    expect(textOf(client.lastMessage)).toBe("Follow-up.");
    expect((await session.turns()).map((t) => t.text)).toEqual(["Second answer.", "Follow-up."]);
  });

  it("regenerate({ messageId }) answers an earlier turn again; sendMessage({ messageId }) edits one", async () => {
    const chat = createChat({ model: scriptedModel(["A1", "A2", "A1 again", "Edited answer"]) });
    const { transport } = await setup(chat);
    const client = new TestChat({ id: "chat-regen-id", transport });
    await client.sendMessage({ text: "Q1" });
    await client.sendMessage({ text: "Q2" });
    const firstAnswer = client.messages[1];

    await client.regenerate({ messageId: firstAnswer.id });
    expect(client.messages.map(textOf)).toEqual(["Q1", "A1 again"]);
    const session = await chat.openSession("chat-regen-id");
    expect((await session.turns()).map((t) => t.text)).toEqual(["A1 again"]);

    await client.sendMessage({ text: "Q1, edited", messageId: client.messages[0].id });
    expect(client.messages.map(textOf)).toEqual(["Q1, edited", "Edited answer"]);
    const branch = await session.turns();
    expect(branch.map((t) => t.input)).toEqual(["Q1, edited"]);
    expect((await session.branches(branch[0].id)).map((t) => t.input)).toEqual(["Q1", "Q1", "Q1, edited"]);
  });

  it("stop() cancels the turn: the journal says canceled and keeps only what was streamed", async () => {
    const deltas = Array.from({ length: 200 }, (_, i) => ({ text: `w${i} `, delay: 20 }));
    const chat = createChat({ model: scriptedModel([{ text: deltas }, "After the stop."]) });
    const { transport } = await setup(chat);
    const client = new TestChat({ id: "chat-stop", transport });

    const sending = client.sendMessage({ text: "Write a lot" });
    await expect.poll(() => (client.lastMessage?.role === "assistant" ? textOf(client.lastMessage).length : 0), { timeout: 10_000 }).toBeGreaterThan(0);
    await client.stop();
    await sending;
    const session = await chat.openSession("chat-stop");
    await expect.poll(async () => (await session.turns())[0]?.status, { timeout: 10_000 }).toBe("canceled");
    const [turn] = await session.turns();
    expect(turn.text ?? "").not.toContain("w199");

    // The session takes the next message at once.
    await client.sendMessage({ text: "Go on" });
    expect(textOf(client.lastMessage)).toBe("After the stop.");
  });

  it("with uiChat.cancelOnDisconnect false, a stopped client leaves the turn running to its end", async () => {
    const deltas = Array.from({ length: 20 }, (_, i) => ({ text: `w${i} `, delay: 15 }));
    const chat = createChat({ model: scriptedModel([{ text: deltas }]) });
    const base = await listen(createChatHandler(chat, { uiChat: { cancelOnDisconnect: false } }));
    const client = new TestChat({ id: "chat-keep", transport: new DefaultChatTransport({ api: `${base}/ui-chat` }) });
    const sending = client.sendMessage({ text: "Write" });
    await expect.poll(() => (client.lastMessage?.role === "assistant" ? textOf(client.lastMessage).length : 0), { timeout: 10_000 }).toBeGreaterThan(0);
    await client.stop();
    await sending;
    const session = await chat.openSession("chat-keep");
    await expect.poll(async () => (await session.turns())[0]?.status, { timeout: 10_000 }).toBe("completed");
    expect((await session.turns())[0].text).toContain("w19");
  });

  it("GET /sessions/:id/ui-messages feeds a new Chat that continues the same session", async () => {
    const model = scriptedModel(["Hello!", "Regenerated hello.", "Second reply."]);
    const chat = createChat({ model });
    const { base, transport } = await setup(chat);
    const before = new TestChat({ id: "chat-reload", transport });
    await before.sendMessage({ text: "Hi" });
    await before.regenerate();

    const response = await fetch(`${base}/sessions/chat-reload/ui-messages`);
    expect(response.status).toBe(200);
    const messages = (await response.json()) as UIMessage[];
    expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
      ["user", "Hi"],
      ["assistant", "Regenerated hello."],
    ]);
    expect(messages[1]).toMatchObject({ id: before.lastMessage!.id, metadata: { turnStatus: "completed" } });

    // The page reloaded: a new Chat from those messages.
    const after = new TestChat({ id: "chat-reload", transport, messages });
    await after.sendMessage({ text: "More" });
    expect(textOf(after.lastMessage)).toBe("Second reply.");
    const session = await chat.openSession("chat-reload");
    expect((await session.turns()).map((t) => [t.input, t.text])).toEqual([
      ["Hi", "Regenerated hello."],
      ["More", "Second reply."],
    ]);
    expect(JSON.stringify(model.doStreamCalls[2].prompt)).toContain("Regenerated hello.");
    // A new useChat chat asks for its messages before its first one: a chat that does not exist yet has none.
    const none = await fetch(`${base}/sessions/nope/ui-messages`);
    expect([none.status, await none.json()]).toEqual([200, []]);
    expect(await chat.store.getSession("nope")).toBeUndefined();
  });

  it("a reload while a turn waits for approval shows the tool part, and approving it continues that message", async () => {
    const chat = createChat({ responder: approvalResponder() });
    const { base, transport, bodies } = await setup(chat);
    const before = new TestChat({ id: "chat-reload-approve", transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await before.sendMessage({ text: "Deploy" });
    expect(before.lastMessage!.parts.some((p) => p.type === "dynamic-tool" && p.state === "approval-requested")).toBe(true);

    const messages = (await (await fetch(`${base}/sessions/chat-reload-approve/ui-messages`)).json()) as UIMessage[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const tool = messages[1].parts.find((p) => p.type === "dynamic-tool");
    expect(tool).toMatchObject({ state: "approval-requested", toolName: "deploy", approval: { id: "approval-0-0" }, input: { apiKey: "[redacted]" } });
    expect(textOf(messages[1])).toBe("Checking. ");
    expect(messages[1].id).toBe(before.lastMessage!.id);

    const after = new TestChat({ id: "chat-reload-approve", transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await after.addToolApprovalResponse({ id: "approval-0-0", approved: true });
    await expect.poll(() => textOf(after.lastMessage)).toBe("Checking. Deployed 1. Done.");
    await expect.poll(() => after.status).toBe("ready");
    expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const [turn] = await (await chat.openSession("chat-reload-approve")).turns();
    expect(turn).toMatchObject({ status: "completed", text: "Checking. Deployed 1. Done." });
    for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret);
  });

  it("a turn started on the SSE route, waiting for approval, is picked up by useChat from ui-messages", async () => {
    const chat = createChat({ responder: approvalResponder() });
    const { base, transport } = await setup(chat);
    await chat.createSession({ id: "chat-from-sse" });
    const started = await fetch(`${base}/sessions/chat-from-sse/turns`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: "Deploy" }),
    });
    for await (const event of sseEvents(started)) if (event.event === "approval-request") break;

    const messages = (await (await fetch(`${base}/sessions/chat-from-sse/ui-messages`)).json()) as UIMessage[];
    expect(messages[1].parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "approval-requested", approval: { id: "approval-0-0" } });
    const client = new TestChat({ id: "chat-from-sse", transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await client.addToolApprovalResponse({ id: "approval-0-0", approved: false, reason: "not today" });
    await expect.poll(() => textOf(client.lastMessage)).toBe("Checking. Not deployed: not today. Done.");
    await expect.poll(() => client.status).toBe("ready");
    expect(client.lastMessage!.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-denied" });
    const [turn] = await (await chat.openSession("chat-from-sse")).turns();
    expect(turn).toMatchObject({ status: "completed", text: "Checking. Not deployed: not today. Done." });
  });
});
