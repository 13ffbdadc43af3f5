import type { LanguageModel, UIMessage, UIMessageChunk } from "ai";
import { Agent, Step } from "june";
import { agentResponder, createChat, type Chat } from "june/chat";
import { createAnthropic } from "june/sdk/anthropic";
import { createOpenAI } from "june/sdk/openai";
import { createChatHandler } from "june/server";
import { turnStream } from "june/stream";
import { createFakeAnthropicServer, createFakeOpenAIServer, type FakeModelEntry } from "june/testing";
import { afterAll, describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";

/**
 * Reasoning and a web-search citation as the providers send them (Anthropic's `thinking` block and
 * `web_search_result_location` citation; OpenAI's reasoning summary and `url_citation` annotation), through
 * June's fake servers, the real provider packages and the real `streamText`: into the turn's events, out of
 * `/ui-chat` as the AI SDK's chunks, from a model chat and from an agent's streamed step, and kept for `/ui-messages`.
 */

const reply: FakeModelEntry = {
  reasoning: ["The user asks for the answer. ", "The guide has it."],
  text: ["The answer ", "is 42."],
  sources: [{ url: "https://example.com/guide", title: "The guide" }],
};
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

const providers: { name: string; model(): Promise<LanguageModel> }[] = [
  {
    name: "anthropic",
    model: async () => {
      const server = await createFakeAnthropicServer({ script: () => reply });
      closers.push(server.close);
      return createAnthropic({ baseURL: server.url, apiKey: "sk-ant-test" })("claude-sonnet-4-5");
    },
  },
  {
    name: "openai",
    model: async () => {
      const server = await createFakeOpenAIServer({ script: () => reply });
      closers.push(server.close);
      return createOpenAI({ baseURL: server.url, apiKey: "sk-test" })("gpt-5-mini");
    },
  },
];

const chats: { name: string; make(model: LanguageModel): Chat }[] = [
  { name: "a model chat", make: (model) => createChat({ model }) },
  {
    name: "an agent's streamed step",
    make: (model) =>
      createChat({
        responder: agentResponder({
          render: ({ input }) => (
            <Agent model={model}>
              <Step id="answer" prompt={input} />
            </Agent>
          ),
          reply: (result) => String(result.steps.answer),
          stream: { step: "answer" },
        }),
      }),
  },
];

async function uiChunks(base: string, id: string): Promise<UIMessageChunk[]> {
  const response = await fetch(`${base}/ui-chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "What is the answer?" }] }], trigger: "submit-message" }),
  });
  const lines = (await response.text()).split("\n\n").filter((line) => line !== "" && line !== "data: [DONE]");
  return lines.map((line) => JSON.parse(line.slice(6)) as UIMessageChunk);
}

describe.each(providers)("reasoning and sources from the real $name provider", (provider) => {
  it.each(chats)("$name: the turn's events carry both, in the model's order; turn.result gives both", async (kind) => {
    const chat = kind.make(await provider.model());
    const turn = (await chat.createSession()).send("What is the answer?");
    const types: string[] = [];
    let reasoning = "";
    for await (const { event } of turnStream(turn)) {
      if (event.type !== "run-update" && event.type !== types.at(-1)) types.push(event.type);
      if (event.type === "reasoning-delta") reasoning += event.text;
    }
    expect(types).toEqual(["turn-start", "reasoning-start", "reasoning-delta", "reasoning-end", "text-delta", "source", "turn-end"]);
    expect(reasoning).toBe("The user asks for the answer. The guide has it.");
    const result = await turn.result;
    expect(result.text).toBe("The answer is 42.");
    expect(result.reasoning).toBe("The user asks for the answer. The guide has it.");
    expect(result.sources).toEqual([expect.objectContaining({ sourceType: "url", url: "https://example.com/guide", title: "The guide" })]);
  });

  it.each(chats)("$name: /ui-chat sends reasoning-delta and source-url chunks; /ui-messages still shows the source after the turn", async (kind) => {
    const base = await listen(createChatHandler(kind.make(await provider.model())));
    const chunks = await uiChunks(base, "cited");
    expect(chunks.filter((chunk) => chunk.type === "reasoning-delta").map((chunk) => chunk.type === "reasoning-delta" && chunk.delta).join("")).toBe("The user asks for the answer. The guide has it.");
    expect(chunks.find((chunk) => chunk.type === "source-url")).toMatchObject({ type: "source-url", url: "https://example.com/guide", title: "The guide" });
    const messages = (await (await fetch(`${base}/sessions/cited/ui-messages`)).json()) as UIMessage[];
    expect(messages[1]!.parts.find((part) => part.type === "source-url")).toMatchObject({ url: "https://example.com/guide", title: "The guide" });
  });
});
