import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { createChat, type Chat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { approvalResponder } from "./__fixtures__/approval-responder.js";
import { listen } from "./__fixtures__/servers.js";
import { TestChat, textOf } from "./__fixtures__/test-chat.js";

/** `useChat` over real HTTP: what a stopped turn keeps, and what a reloaded page's messages say once turns end. */

async function setup(chat: Chat) {
  const base = await listen(createChatHandler(chat));
  return { base, transport: new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` }) };
}

const uiMessages = async (base: string, id: string) => (await (await fetch(`${base}/sessions/${id}/ui-messages`)).json()) as UIMessage[];

describe("useChat's stop() and reload", () => {
  it("stop(): the turn is journaled canceled with the text streamed so far, and a reload shows it, marked canceled", async () => {
    const deltas = Array.from({ length: 200 }, (_, i) => ({ text: `w${i} `, delay: 20 }));
    const chat = createChat({ model: scriptedModel([{ text: deltas }, "After the stop."]) });
    const { base, transport } = await setup(chat);
    const client = new TestChat({ id: "chat-stop", transport });

    const sending = client.sendMessage({ text: "Write a lot" });
    await expect.poll(() => (client.lastMessage?.role === "assistant" ? textOf(client.lastMessage).length : 0), { timeout: 10_000 }).toBeGreaterThan(0);
    await client.stop();
    await sending;
    const seen = textOf(client.lastMessage);
    const session = await chat.openSession("chat-stop");
    await expect.poll(async () => (await session.turns())[0]?.status, { timeout: 10_000 }).toBe("canceled");
    const [turn] = await session.turns();
    // What the client was shown, and perhaps the few words streamed while its stop was on the way.
    expect(turn!.text?.startsWith(seen)).toBe(true);
    expect(turn!.text).not.toContain("w199");

    const restored = await uiMessages(base, "chat-stop");
    expect(restored[1]).toEqual({ id: turn!.id, role: "assistant", metadata: { turnStatus: "canceled" }, parts: [{ type: "text", text: turn!.text, state: "done" }] });
  });

  it("a message restored while its turn waited says turnStatus running, and completed once the turn ended", async () => {
    const chat = createChat({ responder: approvalResponder() });
    const { base, transport } = await setup(chat);
    const before = new TestChat({ id: "chat-status", transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await before.sendMessage({ text: "Deploy" });

    const messages = await uiMessages(base, "chat-status");
    expect(messages[1]!.metadata).toEqual({ turnStatus: "running" });
    const after = new TestChat({ id: "chat-status", transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await after.addToolApprovalResponse({ id: "approval-0-0", approved: true });
    await expect.poll(() => textOf(after.lastMessage)).toBe("Checking. Deployed 1. Done.");
    await expect.poll(() => after.status).toBe("ready");
    expect(after.lastMessage!.metadata).toEqual({ turnStatus: "completed" });
    // As a reload now would say.
    expect((await uiMessages(base, "chat-status"))[1]!.metadata).toEqual({ turnStatus: "completed" });
  });

  it("regenerate with a messageId no message has is a 404, and regenerates nothing", async () => {
    const model = scriptedModel(["First.", "Again."]);
    const chat = createChat({ model });
    const { base, transport } = await setup(chat);
    const client = new TestChat({ id: "chat-regen-404", transport });
    await client.sendMessage({ text: "Hello" });
    const messages = client.messages;

    const response = await fetch(`${base}/ui-chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "chat-regen-404", messages: messages.slice(0, 1), trigger: "regenerate-message", messageId: "no-such-message" }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe('Chat "chat-regen-404" has no message "no-such-message" to regenerate');
    const session = await chat.openSession("chat-regen-404");
    const [turn] = await session.turns();
    expect(await session.branches(turn!.id)).toHaveLength(1);
    expect(model.callCount).toBe(1);

    // The client's own id for its user message (not the journal's) still names the message it sent.
    await client.regenerate({ messageId: messages[0]!.id });
    expect(textOf(client.lastMessage)).toBe("Again.");
    expect((await session.turns()).map((t) => t.text)).toEqual(["Again."]);
  });
});
