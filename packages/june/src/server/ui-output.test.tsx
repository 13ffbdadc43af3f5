import { DefaultChatTransport, Output, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Agent, outputOf, Step } from "june";
import { agentResponder, createChat, memoryStore } from "june/chat";
import { createChatHandler, type JuneOutputData } from "june/server";
import { scriptedModel } from "june/testing";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents } from "./__fixtures__/sse-client.js";

const card = Output.object({ schema: z.object({ title: z.string(), tags: z.array(z.string()) }) });
type Message = UIMessage<unknown, { "june-output": JuneOutputData<typeof card> }>;

/** An agent chat whose one streamed step answers with a card: JSON in deltas, read back as an object. */
function cardChat() {
  return createChat({
    store: memoryStore(),
    responder: agentResponder({
      render: ({ input }) => (
        <Agent model={scriptedModel({ text: ['{"title":"Rel', 'ease notes",', '"tags":["docs"', ',"api"]}'], delay: 5 })}>
          <Step id="card" stream prompt={input} output={card} />
        </Agent>
      ),
      // The text fallback: readable, from the typed result.
      reply: (result) => {
        const value = outputOf(result, "card", card);
        return `${value.title} (${value.tags.join(", ")})`;
      },
      stream: { step: "card" },
    }),
  });
}

const FULL = { title: "Release notes", tags: ["docs", "api"] };

describe("a chat that streams an output step (issue 41)", () => {
  it("/ui-chat sends the partial object as data-june-output parts under one id, then the result; the text is the readable reply", async () => {
    const base = await listen(createChatHandler(cardChat()));
    const transport = new DefaultChatTransport<Message>({ api: `${base}/ui-chat` });
    const stream = await transport.sendMessages({
      chatId: "cards",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Make a card" }] }],
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: undefined,
    });
    const chunks: UIMessageChunk[] = [];
    const [mine, theirs] = stream.tee();
    const reader = mine.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const parts = chunks.filter((chunk) => chunk.type === "data-june-output") as { type: string; id: string; data: JuneOutputData<typeof card> }[];
    expect(new Set(parts.map((part) => part.id))).toEqual(new Set(["output-card"]));
    // Partial updates while it streams, each a prefix of the object, then the checked result.
    const partial = parts.filter((part) => !part.data.done);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(partial[0]!.data.output).toMatchObject({ title: expect.stringMatching(/^Rel/) });
    expect(parts.at(-1)!.data).toEqual({ stepId: "card", output: FULL, done: true });
    // The text is the reply, not the model's JSON.
    const text = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
    expect(text).toBe("Release notes (docs, api)");
    expect(chunks.some((chunk) => chunk.type === "text-delta" && chunk.delta.includes("{"))).toBe(false);
    // What useChat holds: one data part (the latest), and the text.
    let message: Message | undefined;
    for await (const state of readUIMessageStream<Message>({ stream: theirs })) message = state;
    const data = message!.parts.filter((part) => part.type === "data-june-output");
    expect(data).toEqual([{ type: "data-june-output", id: "output-card", data: { stepId: "card", output: FULL, done: true } }]);
    expect(message!.parts.find((part) => part.type === "text")).toMatchObject({ text: "Release notes (docs, api)" });
  });

  it("the turn's run-update snapshots carry the partial object on the step's row", async () => {
    const chat = cardChat();
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession();
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "Make a card" });
    const outputs: unknown[] = [];
    let end: unknown;
    for await (const event of sseEvents(response)) {
      if (event.event === "run-update") {
        const rows = (event.data as { rows: { kind: string; stepId?: string; output?: unknown }[] }).rows;
        const row = rows.find((r) => r.kind === "step" && r.stepId === "card");
        if (row?.output !== undefined && JSON.stringify(row.output) !== JSON.stringify(outputs.at(-1))) outputs.push(row.output);
      }
      if (event.event === "turn-end") end = event.data;
    }
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    expect(outputs.at(-1)).toEqual(FULL);
    // Each snapshot a partial object: its title grows toward the whole one.
    const titles = outputs.map((output) => (output as { title?: string }).title ?? "");
    for (const title of titles) expect("Release notes".startsWith(title)).toBe(true);
    expect(end).toMatchObject({ status: "completed", text: "Release notes (docs, api)" });
  });
});
