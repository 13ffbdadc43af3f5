import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { fileStore } from "june/chat";
import { createChatHandler } from "june/server";
import { afterAll, describe, expect, it } from "vitest";
import { durableChat } from "../chat/__fixtures__/durable-chat.js";
import { listen } from "./__fixtures__/servers.js";

const root = mkdtempSync(join(tmpdir(), "june-ui-chat-edit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function assemble(stream: ReadableStream<UIMessageChunk>, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream, ...(message && { message }) })) last = state;
  return last!;
}

const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "ship the docs" }] };

describe("POST /ui-chat: a tool part approved with another input", () => {
  it("runs the tool with the edited input (useChat edits the part's input, then addToolApprovalResponse); a bad edit is a 400 and stays pending", async () => {
    const log = join(root, "calls.log");
    const { chat } = durableChat({ store: fileStore(join(root, "chat")), log, durable: { suspendAfterMs: Infinity }, unstreamed: true });
    const base = await listen(createChatHandler(chat));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const send = (messages: UIMessage[]) => transport.sendMessages({ chatId: "c1", messages, trigger: "submit-message", messageId: undefined, abortSignal: undefined });

    const paused = await assemble(await send([user]));
    const part = paused.parts.find((p) => p.type === "dynamic-tool");
    expect(part).toMatchObject({ state: "approval-requested", toolName: "deploy" });
    const answer = (input: unknown): UIMessage => ({
      ...paused,
      parts: paused.parts.map((p) =>
        p.type === "dynamic-tool" && p.state === "approval-requested" ? { ...p, input, state: "approval-responded", approval: { id: p.approval.id, approved: true } } : p,
      ),
    });

    await expect(send([user, answer({ env: 5, token: "x" })])).rejects.toThrow(/input\.env must be string/);
    expect((await chat.openSession("c1")).currentTurn?.requests).toHaveLength(1);

    const done = await assemble(await send([user, answer({ env: "staging", token: "tok-ui-edited" })]), answer({ env: "staging", token: "tok-ui-edited" }));
    expect(done.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toEqual(["model plan", "model work-ask", "deploy staging tok-ui-edited", "model work-answer", "model reply"]);
    const entries = await chat.store.read("c1");
    expect(entries.find((e) => e.type === "approval")).toMatchObject({ approved: true, edited: true });
    expect(JSON.stringify(entries)).not.toContain("tok-ui-edited");
  });
});
