import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { memoryStore } from "june/chat";
import { createChatHandler } from "june/server";
import { describe, expect, it } from "vitest";
import { askChat, QUESTION } from "../ask/__fixtures__/ask-chat.js";
import { listen } from "./__fixtures__/servers.js";

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return chunks;
    chunks.push(next.value);
  }
}

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

describe("POST /ui-chat: a question answered as the ask_user tool's output", () => {
  it("shows the question as an ask_user tool call; the client's tool output answers it and the same message continues", async () => {
    const { chat, model } = askChat({ store: memoryStore() });
    const base = await listen(createChatHandler(chat));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const send = (messages: UIMessage[]) => transport.sendMessages({ chatId: "chat-ask", messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });

    const first = await collect(await send([user("u1", "Ship it")]));
    const input = first.find((c) => c.type === "tool-input-available") as { toolCallId: string; toolName: string; input: unknown } | undefined;
    expect(input).toMatchObject({ toolName: "ask_user", input: { question: QUESTION } });
    const paused = await assemble(first);
    // What `addToolOutput({ tool: "ask_user", toolCallId, output })` does to the part, then the resend.
    const answered: UIMessage = {
      ...paused,
      parts: paused.parts.map((p) => (p.type === "dynamic-tool" && p.toolName === "ask_user" ? ({ ...p, state: "output-available", output: "staging" } as typeof p) : p)),
    };
    const rest = await collect(await send([user("u1", "Ship it"), answered]));
    expect(rest[0]).toEqual({ type: "start", messageId: paused.id });
    const final = await assemble(rest, answered);
    const text = final.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("");
    expect(text).toBe('Deploying to "staging".');
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).toContain("staging");
    const [turn] = await (await chat.openSession("chat-ask")).turns();
    expect(turn).toMatchObject({ status: "completed" });
  });
});
