import { jsonSchema, tool, validateUIMessages, type UIMessage, type UIMessageChunk } from "ai";
import { createChat, type Chat } from "june/chat";
import { createChatHandler, type ChatHandlerOptions } from "june/server";
import { juneTraceDataSchema, type JuneTraceData } from "june/stream";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { researchChat } from "./__fixtures__/research-chat.js";
import { listen } from "./__fixtures__/servers.js";
import { assemble, collectChunks, sendUi, uiTransport, user } from "./__fixtures__/ui-client.js";
import type { OutputGuardrail } from "../guardrails/types.js";

/**
 * `/ui-chat`'s live trace: each `run-update` of the turn as one `data-june-trace` chunk, all with the turn's id,
 * so the message holds one part with the latest rows (the AI SDK replaces a data part by id).
 */

type JuneUIMessage = UIMessage<unknown, { "june-trace": JuneTraceData }>;

/** A workflow chat: a research step, then the streamed reply. */
function agentChat(options: { output?: OutputGuardrail[] } = {}): Chat {
  const model = scriptedModel([{ text: "Notes on June." }, { text: ["June ", "is ", "ready."], delay: 5 }]);
  const lookup = tool({ description: "Look up", inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }), execute: async () => "found" });
  return researchChat({ model, lookup, ...(options.output && { guardrails: { output: options.output } }) });
}

async function turnChunks(chat: Chat, options: ChatHandlerOptions = {}, chatId = "trace-chat"): Promise<UIMessageChunk[]> {
  const base = await listen(createChatHandler(chat, options));
  return collectChunks(await sendUi(uiTransport(base), chatId, [user("u1", "What is June?")]));
}

const traceChunks = (chunks: UIMessageChunk[]) => chunks.filter((chunk): chunk is UIMessageChunk & { type: "data-june-trace"; id: string; data: JuneTraceData } => chunk.type === "data-june-trace");
const titles = (data: JuneTraceData): string[] => data.rows.flatMap(function walk(row): string[] {
  return [row.title, ...row.children.flatMap(walk)];
});

describe("/ui-chat's data-june-trace part", () => {
  it("sends each run-update of an agent turn with one id; the message holds the latest rows, checked by juneTraceDataSchema", async () => {
    const chunks = await turnChunks(agentChat());
    const traces = traceChunks(chunks);
    expect(traces.length).toBeGreaterThan(2);
    const start = chunks.find((chunk) => chunk.type === "start") as { messageId: string };
    expect(new Set(traces.map((chunk) => chunk.id))).toEqual(new Set([start.messageId]));
    // Live: the research step shows running before the reply streams, and done at the end.
    const firstText = chunks.findIndex((chunk) => chunk.type === "text-delta");
    expect(traces.some((chunk) => chunks.indexOf(chunk) < firstText && chunk.data.rows.some((row) => row.status === "running"))).toBe(true);
    const last = traces.at(-1)!.data;
    expect(titles(last).join(" | ")).toMatch(/research/);
    expect(last.rows.every((row) => row.status === "done")).toBe(true);

    const message = (await assemble(chunks)) as JuneUIMessage;
    const parts = message.parts.filter((part) => part.type === "data-june-trace");
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ id: start.messageId, data: last });
    // The schema useChat takes as dataPartSchemas accepts it, and refuses what is not trace rows.
    await expect(validateUIMessages<JuneUIMessage>({ messages: [message], dataSchemas: { "june-trace": juneTraceDataSchema } })).resolves.toHaveLength(1);
    const bad = { ...message, parts: [{ type: "data-june-trace" as const, id: "x", data: { rows: [{ id: 1 }] } }] };
    await expect(validateUIMessages({ messages: [bad], dataSchemas: { "june-trace": juneTraceDataSchema } })).rejects.toThrow(/rows\[0\]\.id/);
  });

  it("is off with uiChat: { sendTrace: false }, off for a model chat unless asked for", async () => {
    expect(traceChunks(await turnChunks(agentChat(), { uiChat: { sendTrace: false } }))).toEqual([]);
    const modelChat = () => createChat({ model: scriptedModel([{ text: "Hi." }]) });
    const plain = await turnChunks(modelChat());
    expect(traceChunks(plain)).toEqual([]);
    expect(plain.some((chunk) => chunk.type === "text-delta")).toBe(true);
    const asked = traceChunks(await turnChunks(modelChat(), { uiChat: { sendTrace: true } }));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.at(-1)!.data.rows[0]).toMatchObject({ kind: "model", status: "done" });
  });

  it("obeys a held output guardrail as the text does: nothing of a blocked reply, the rows with the text once it passed", async () => {
    const blocked = await turnChunks(agentChat({ output: [{ name: "no-june", check: ({ text }) => (text.includes("June") ? "Says June" : undefined) }] }), {}, "held-blocked");
    expect(blocked.some((chunk) => chunk.type === "text-delta")).toBe(false);
    expect(blocked.find((chunk) => chunk.type === "error")).toMatchObject({ errorText: expect.stringMatching(/GuardrailTrippedError/) });
    // No row of any snapshot holds the held reply's text.
    for (const chunk of traceChunks(blocked)) expect(JSON.stringify(chunk.data)).not.toContain("ready.");

    const passed = await turnChunks(agentChat({ output: [{ name: "fine", check: () => undefined }] }), {}, "held-passed");
    const firstText = passed.findIndex((chunk) => chunk.type === "text-delta");
    expect(firstText).toBeGreaterThan(-1);
    const traces = traceChunks(passed);
    // Before the text is released no snapshot carries it; the last one, after it, does.
    for (const chunk of traces.filter((c) => passed.indexOf(c) < firstText)) expect(JSON.stringify(chunk.data)).not.toContain("ready.");
    expect(passed.indexOf(traces.at(-1)!)).toBeGreaterThan(firstText);
    expect(JSON.stringify(traces.at(-1)!.data)).toContain("June is ready.");
  });
});
