// What a `useChat` client does with `/ui-chat` answers, for the tests: read the chunks, build the assistant
// message from them, and answer its approval requests as `addToolApprovalResponse` does.
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";

export const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

/** A transport to `${base}/ui-chat`. */
export const uiTransport = (base: string) => new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });

export const sendUi = (transport: DefaultChatTransport<UIMessage>, chatId: string, messages: UIMessage[], abortSignal?: AbortSignal) =>
  transport.sendMessages({ chatId, messages, trigger: "submit-message", messageId: undefined, abortSignal });

/** Every chunk of a UI message stream (what came before a failed read, when it fails). */
export async function collectChunks(stream: ReadableStream<UIMessageChunk>, onChunk: (chunk: UIMessageChunk) => void = () => {}): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return chunks;
      chunks.push(next.value);
      onChunk(next.value);
    }
  } catch {
    return chunks;
  }
}

/** The assistant message the chunks build, continuing `message` when given. */
export async function assemble(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
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

/** What `addToolApprovalResponse` does to the pending tool parts. */
export function answer(message: UIMessage, approved: boolean, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p.type === "dynamic-tool" && p.state === "approval-requested"
        ? { ...p, state: "approval-responded", approval: { id: p.approval.id, approved, ...(reason !== undefined && { reason }) } }
        : p,
    ),
  };
}

export const uiText = (message: UIMessage) => message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
