import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { approvalResponder, SECRETS } from "./__fixtures__/approval-responder.js";
import { listen } from "./__fixtures__/servers.js";
import { TestChat, textOf } from "./__fixtures__/test-chat.js";
import { APPROVAL_RESPONSE_CHUNKS } from "./ui-approval-chunks.js";
import { collectChunks } from "./__fixtures__/ui-client.js";

/**
 * `useChat({ resume: true })` against `/ui-chat`: the AI SDK's own `Chat` (what `useChat` wraps) and
 * `DefaultChatTransport`, whose `reconnectToStream` asks `GET ${api}/${chatId}/stream`.
 */

const WAIT = { timeout: 10_000 };

async function setup(handlerOptions: Parameters<typeof createChatHandler>[1], chat = createChat({ model: scriptedModel(["unused"]) })) {
  const base = await listen(createChatHandler(chat, handlerOptions));
  const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
  const uiMessages = async (id: string) => (await (await fetch(`${base}/sessions/${id}/ui-messages`)).json()) as UIMessage[];
  return { base, chat, transport, uiMessages };
}

describe("GET /ui-chat/:id/stream: useChat's resume", () => {
  it("answers 204 (nothing to resume) for an unknown chat and for one whose turns all ended", async () => {
    const { base, chat, transport } = await setup({}, createChat({ model: scriptedModel(["Hello."]) }));
    expect((await fetch(`${base}/ui-chat/never-seen/stream`)).status).toBe(204);
    expect(await transport.reconnectToStream({ chatId: "never-seen" })).toBeNull();

    const client = new TestChat({ id: "ended", transport });
    await client.sendMessage({ text: "Hi" });
    expect(textOf(client.lastMessage)).toBe("Hello.");
    expect(await transport.reconnectToStream({ chatId: "ended" })).toBeNull();
    const response = await fetch(`${base}/ui-chat/ended/stream`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await (await chat.openSession("ended")).turns()).length).toBe(1);
  });

  it("a page reloaded mid-reply rejoins the running turn and streams it to its end, in the same message", async () => {
    const words = Array.from({ length: 40 }, (_, i) => ({ text: `w${i} `, delay: 15 }));
    const { chat, transport, uiMessages } = await setup({ uiChat: { cancelOnDisconnect: false } }, createChat({ model: scriptedModel([{ text: words }, "Next."]) }));
    const before = new TestChat({ id: "reload", transport });
    const sending = before.sendMessage({ text: "Write" });
    await expect.poll(() => (before.lastMessage?.role === "assistant" ? textOf(before.lastMessage).length : 0), WAIT).toBeGreaterThan(0);
    // The reload: the page's request goes away, the page comes back with the session's messages and resumes.
    await before.stop();
    await sending;
    const messages = await uiMessages("reload");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1].metadata).toEqual({ turnStatus: "running" });
    const turnId = messages[1].id;

    const after = new TestChat({ id: "reload", transport, messages });
    await after.resumeStream();
    expect(after.status).toBe("ready");
    expect(after.messages.map((m) => [m.role, m.id])).toEqual([
      ["user", messages[0].id],
      ["assistant", turnId],
    ]);
    // The whole reply once: the replay replaced the page's copy of the message.
    expect(textOf(after.lastMessage)).toBe(words.map((w) => w.text).join(""));
    const session = await chat.openSession("reload");
    expect((await session.turns())[0]).toMatchObject({ id: turnId, status: "completed" });

    // Nothing runs now; the session goes on.
    expect(await transport.reconnectToStream({ chatId: "reload" })).toBeNull();
    await after.sendMessage({ text: "More" });
    expect(textOf(after.lastMessage)).toBe("Next.");
  });

  it("a turn waiting for approval is replayed up to its request; a decided one shows decided, not asking again", async () => {
    const { chat, transport, uiMessages } = await setup({}, createChat({ responder: approvalResponder({ calls: 2 }) }));
    const auto = { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses };
    const before = new TestChat({ id: "approvals", transport, ...auto });
    await before.sendMessage({ text: "Deploy twice" });
    await before.addToolApprovalResponse({ id: "approval-0-0", approved: true });
    await expect.poll(() => before.lastMessage?.parts.some((p) => p.type === "dynamic-tool" && p.state === "approval-requested"), WAIT).toBe(true);
    await expect.poll(() => before.status, WAIT).toBe("ready");

    // A reload: a new page with the session's messages asks to resume.
    const stream = await transport.reconnectToStream({ chatId: "approvals" });
    expect(stream).not.toBeNull();
    const chunks = await collectChunks(stream!);
    expect(chunks[0]).toMatchObject({ type: "start", messageId: before.lastMessage!.id });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    // The first request was approved before the reload: never shown as waiting.
    const of = (type: string, approvalId: string) => chunks.filter((c) => c.type === type && (c as { approvalId?: string }).approvalId === approvalId).length;
    // On the 7 line asked and answered (`approval-responded`), on the 6 line not asked (`input-available`).
    const shown = APPROVAL_RESPONSE_CHUNKS ? 1 : 0;
    expect([of("tool-approval-request", "approval-0-0"), of("tool-approval-response", "approval-0-0")]).toEqual([shown, shown]);
    expect(chunks.some((c) => c.type === "tool-approval-request" && c.approvalId === "approval-0-1")).toBe(true);
    for (const secret of SECRETS) expect(JSON.stringify(chunks)).not.toContain(secret);

    const after = new TestChat({ id: "approvals", transport, messages: await uiMessages("approvals"), ...auto });
    await after.resumeStream();
    const tools = after.lastMessage!.parts.filter((p) => p.type === "dynamic-tool");
    expect(tools.map((p) => [p.toolCallId, p.state])).toEqual([
      ["call-0-0", "output-available"],
      ["call-0-1", "approval-requested"],
    ]);
    expect(textOf(after.lastMessage)).toBe("Checking. Deployed 1. ");
    expect((tools[0] as { approval?: unknown }).approval).toEqual(APPROVAL_RESPONSE_CHUNKS ? { id: "approval-0-0", approved: true } : undefined);
    await after.addToolApprovalResponse({ id: "approval-0-1", approved: false, reason: "not today" });
    await expect.poll(() => textOf(after.lastMessage), WAIT).toBe("Checking. Deployed 1. Not deployed: not today. Done.");
    await expect.poll(() => after.status, WAIT).toBe("ready");
    expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const [turn] = await (await chat.openSession("approvals")).turns();
    expect(turn).toMatchObject({ status: "completed", text: "Checking. Deployed 1. Not deployed: not today. Done." });
  });
});

describe("x-resumable-stream-id: assistant-ui's resumable (issue 41)", () => {
  it("POST /ui-chat names the chat in x-resumable-stream-id, and GET /ui-chat/<that id>/stream rejoins its running turn", async () => {
    const words = Array.from({ length: 40 }, (_, i) => ({ text: `w${i} `, delay: 15 }));
    const { base } = await setup({ uiChat: { cancelOnDisconnect: false } }, createChat({ model: scriptedModel([{ text: words }]) }));
    const streamIds: (string | null)[] = [];
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${base}/ui-chat`,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        streamIds.push(response.headers.get("x-resumable-stream-id"));
        return response;
      },
    });
    const before = new TestChat({ id: "assistant-ui-1", transport });
    const sending = before.sendMessage({ text: "Write" });
    await expect.poll(() => (before.lastMessage?.role === "assistant" ? textOf(before.lastMessage).length : 0), WAIT).toBeGreaterThan(0);
    await before.stop();
    await sending;
    expect(streamIds).toEqual(["assistant-ui-1"]);

    // What assistant-ui's `resumeApi: (streamId) => ...` asks after a reload: the running turn, to its end.
    const resumed = await fetch(`${base}/ui-chat/${streamIds[0]}/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("x-resumable-stream-id")).toBe("assistant-ui-1");
    const body = await resumed.text();
    expect(body).toContain("w39 ");
    expect(body.trim().endsWith("data: [DONE]")).toBe(true);
    // Once it ended, nothing to resume.
    expect((await fetch(`${base}/ui-chat/${streamIds[0]}/stream`)).status).toBe(204);
  });
});

describe("POST /ui-chat/:id/stop", () => {
  it("cancels the chat's running turn, which a closed request leaves running, and answers 204 when none runs", async () => {
    const words = Array.from({ length: 200 }, (_, i) => ({ text: `w${i} `, delay: 20 }));
    const { base, chat, transport } = await setup({ uiChat: { cancelOnDisconnect: false } }, createChat({ model: scriptedModel([{ text: words }]) }));
    const client = new TestChat({ id: "stop", transport });
    const sending = client.sendMessage({ text: "Write a lot" });
    await expect.poll(() => (client.lastMessage?.role === "assistant" ? textOf(client.lastMessage).length : 0), WAIT).toBeGreaterThan(0);
    const stopped = await fetch(`${base}/ui-chat/stop/stop`, { method: "POST" });
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ ok: true, turnId: client.lastMessage!.id });
    await client.stop();
    await sending;
    const session = await chat.openSession("stop");
    await expect.poll(async () => (await session.turns())[0]?.status, WAIT).toBe("canceled");
    expect((await session.turns())[0].text ?? "").not.toContain("w199");
    expect((await fetch(`${base}/ui-chat/stop/stop`, { method: "POST" })).status).toBe(204);
    expect((await fetch(`${base}/ui-chat/nope/stop`, { method: "POST" })).status).toBe(404);
  });
});
