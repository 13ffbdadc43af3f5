import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { Agent, Step } from "june";
import { agentResponder, createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";

describe("POST /ui-chat: a team's handoff", () => {
  it("streams the editor's reply to the handed-off message; the message's metadata names the agent and the handoff", async () => {
    const front = scriptedModel([{ toolCalls: [{ toolName: "handoff", input: { agent: "editor", reason: "headline" } }] }]);
    const editor = scriptedModel([{ text: [{ text: "Send me " }, { text: "the headline." }] }]);
    const chat = createChat({
      responder: agentResponder({
        start: "front",
        agents: {
          front: { render: ({ input, handoff }) => <Agent model={front}>{handoff}<Step id="reply" prompt={input} /></Agent>, reply: (r) => String(r.steps.reply) },
          editor: {
            version: "2",
            render: ({ input }) => <Agent model={editor}><Step id="reply" stream prompt={input} /></Agent>,
            reply: (r) => String(r.steps.reply),
            stream: { step: "reply" },
          },
        },
      }),
    });
    const base = await listen(createChatHandler(chat));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const stream = await transport.sendMessages({
      chatId: "desk",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Fix my headline" }] }],
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    const [a, b] = stream.tee();
    void (async () => {
      for (const reader = b.getReader(); ; ) {
        const next = await reader.read();
        if (next.done) return;
        chunks.push(next.value);
      }
    })();
    let message: UIMessage | undefined;
    for await (const state of readUIMessageStream({ stream: a })) message = state;
    expect(message!.parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["Send me the headline."]);
    expect(message!.metadata).toEqual({ turnStatus: "completed", agent: { id: "editor", version: "2" }, handoff: { from: "front", to: "editor", reason: "headline" } });
    expect(chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => (chunk as { delta: string }).delta).join("")).toBe("Send me the headline.");

    // Reloaded (`/ui-messages`): the stored turn's message says the same.
    const stored = (await (await fetch(`${base}/sessions/desk/ui-messages`)).json()) as UIMessage[];
    expect(stored.at(-1)).toMatchObject({ role: "assistant", metadata: message!.metadata });
  });
});
