import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from "ai";
import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";
import { TestChat } from "./__fixtures__/test-chat.js";

/** `/ui-chat` sends the model's reasoning and sources as the AI SDK's own chunks (`uiChat: { sendReasoning, sendSources }`). */

const WAIT = { timeout: 10_000 };
const thinking = { reasoning: ["Checking ", "the docs."], text: ["The answer ", "is 42."], sources: [{ url: "https://example.com/answer", title: "The answer" }] };

async function post(base: string, id: string): Promise<UIMessageChunk[]> {
  const response = await fetch(`${base}/ui-chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "What?" }] }], trigger: "submit-message" }),
  });
  const lines = (await response.text()).split("\n\n").filter((line) => line !== "" && line !== "data: [DONE]");
  return lines.map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);
}

const kinds = (message: UIMessage | undefined) => (message?.parts ?? []).map((part) => part.type).filter((type) => type !== "step-start");

describe("/ui-chat: reasoning and sources", () => {
  it("sends reasoning-start/-delta/-end and source-url chunks where the model sent them; useChat builds reasoning, text and source-url parts", async () => {
    const base = await listen(createChatHandler(createChat({ model: scriptedModel([thinking, thinking]) })));
    const chunks = await post(base, "wire");
    expect(chunks.map((chunk) => chunk.type).filter((type, i, all) => type !== all[i - 1])).toEqual([
      "start",
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "source-url",
      "finish-step",
      "finish",
    ]);
    expect(chunks.find((chunk) => chunk.type === "source-url")).toEqual({ type: "source-url", sourceId: "source-0-0", url: "https://example.com/answer", title: "The answer" });

    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const client = new TestChat({ id: "parts", transport });
    await client.sendMessage({ text: "What?" });
    expect(kinds(client.lastMessage)).toEqual(["reasoning", "text", "source-url"]);
    expect(client.lastMessage?.parts.find((part) => part.type === "reasoning")).toMatchObject({ text: "Checking the docs.", state: "done" });
  });

  it("sends neither with sendReasoning: false and sendSources: false", async () => {
    const base = await listen(createChatHandler(createChat({ model: scriptedModel(thinking) }), { uiChat: { sendReasoning: false, sendSources: false } }));
    const types = new Set((await post(base, "off")).map((chunk) => chunk.type));
    expect([...types].filter((type) => type.startsWith("reasoning") || type.startsWith("source"))).toEqual([]);
    expect(types.has("text-delta")).toBe(true);
  });

  it("a page that rejoins the running turn (resume: true) gets its reasoning replayed", async () => {
    const words = Array.from({ length: 30 }, (_, i) => ({ text: `w${i} `, delay: 15 }));
    const chat = createChat({ model: scriptedModel([{ reasoning: "Thinking first.", text: words, sources: thinking.sources }]) });
    const base = await listen(createChatHandler(chat, { uiChat: { cancelOnDisconnect: false } }));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const before = new TestChat({ id: "rejoin", transport });
    const sending = before.sendMessage({ text: "Write" });
    await expect.poll(() => before.lastMessage?.role === "assistant" && before.lastMessage.parts.some((part) => part.type === "text"), WAIT).toBe(true);
    await before.stop();
    await sending;
    const messages = (await (await fetch(`${base}/sessions/rejoin/ui-messages`)).json()) as UIMessage[];
    const after = new TestChat({ id: "rejoin", transport, messages });
    await after.resumeStream();
    expect(kinds(after.lastMessage)).toEqual(["reasoning", "text", "source-url"]);
    expect(after.lastMessage?.parts.find((part) => part.type === "reasoning")).toMatchObject({ text: "Thinking first." });
  });
});
