import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "./fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = tool({
  description: "Weather in a city",
  inputSchema: jsonSchema<{ city: string }>({
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  }),
  execute: async ({ city }) => `sunny in ${city}`,
});

type Api = "responses" | "chat";
const models: Record<Api, (url: string) => LanguageModel> = {
  responses: (url) => createOpenAI({ baseURL: url, apiKey: "sk-test" })("gpt-5-mini"),
  chat: (url) => createOpenAI({ baseURL: url, apiKey: "sk-test" }).chat("gpt-5-mini"),
};

describe.each(["responses", "chat"] as const)("createFakeOpenAIServer with the real openai provider (%s)", (api) => {
  it("streams text deltas, reports usage and records the request", async () => {
    server = await createFakeOpenAIServer({
      script: [{ text: ["Hel", "lo", " there"], usage: { inputTokens: 7, outputTokens: 3 } }],
    });
    const result = streamText({ model: models[api](server.url), system: "Be brief.", prompt: "Say hello" });
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") deltas.push(part.text);
      if (part.type === "error") throw part.error;
    }
    expect(deltas).toEqual(["Hel", "lo", " there"]);
    expect(await result.text).toBe("Hello there");
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens, usage.totalTokens]).toEqual([7, 3, 10]);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.api).toBe(api === "chat" ? "chat-completions" : "responses");
    expect(request.body.stream).toBe(true);
    expect(request.headers.authorization).toBe("Bearer sk-test");
    const sent = JSON.stringify(api === "chat" ? request.body.messages : request.body.input);
    expect(sent).toContain("Say hello");
    expect(sent).toContain("Be brief.");
  });

  it("streams a function call that the SDK executes, then the follow-up reply", async () => {
    server = await createFakeOpenAIServer({
      script: [{ toolCalls: [{ toolName: "weather", input: { city: "Oslo" } }] }, "It is sunny in Oslo."],
    });
    const result = streamText({
      model: models[api](server.url),
      prompt: "Weather in Oslo?",
      tools: { weather },
      stopWhen: stepCountIs(3),
    });
    const calls: unknown[] = [];
    const results: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-call") calls.push([part.toolName, part.input]);
      if (part.type === "tool-result") results.push(part.output);
      if (part.type === "error") throw part.error;
    }
    expect(calls).toEqual([["weather", { city: "Oslo" }]]);
    expect(results).toEqual(["sunny in Oslo"]);
    expect(await result.text).toBe("It is sunny in Oslo.");
    expect(server.requests).toHaveLength(2);
    // The second request carries the call's result back to the model.
    expect(JSON.stringify(server.requests[1]!.body)).toContain("sunny in Oslo");
  });

  it("answers an error status with an OpenAI error body", async () => {
    server = await createFakeOpenAIServer({ script: [{ error: { status: 400, message: "bad things" } }] });
    const result = streamText({ model: models[api](server.url), prompt: "x", maxRetries: 0, onError: () => {} });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain("bad things");
  });

  it("streams text and then an error event", async () => {
    server = await createFakeOpenAIServer({ script: [{ text: ["partial"], error: { message: "cut off", at: "end" } }] });
    const result = streamText({ model: models[api](server.url), prompt: "x", maxRetries: 0, onError: () => {} });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain("text-delta");
    expect(types).toContain("error");
  });

  it("answers non-streaming requests too", async () => {
    server = await createFakeOpenAIServer({ script: ["Plain reply"] });
    const result = await generateText({ model: models[api](server.url), prompt: "x" });
    expect(result.text).toBe("Plain reply");
    expect(server.requests[0]!.body.stream).not.toBe(true);
  });
});

describe("createFakeOpenAIServer", () => {
  it("fails a request the script does not provide, with a 400 that says so", async () => {
    server = await createFakeOpenAIServer({ script: ["one"] });
    const model = models.chat(server.url);
    await streamText({ model, prompt: "a" }).consumeStream();
    const errors: unknown[] = [];
    for await (const part of streamText({ model, prompt: "b", maxRetries: 0, onError: () => {} }).fullStream) {
      if (part.type === "error") errors.push(part.error);
    }
    expect(String((errors[0] as Error).message)).toMatch(/no script entry for request 2/);
  });

  it("takes a function script that sees each request", async () => {
    const seen: number[] = [];
    server = await createFakeOpenAIServer({
      script: ({ index }) => {
        seen.push(index);
        return `reply ${index}`;
      },
    });
    const model = models.responses(server.url);
    expect(await streamText({ model, prompt: "a" }).text).toBe("reply 0");
    expect(await streamText({ model, prompt: "b" }).text).toBe("reply 1");
    expect(seen).toEqual([0, 1]);
  });

  it("serves openai-compatible clients (Chat Completions)", async () => {
    server = await createFakeOpenAIServer({ script: [{ text: ["a", "b"], delay: 5 }] });
    const model = createOpenAICompatible({ name: "local", baseURL: server.url })("llama3.2");
    expect(await streamText({ model, prompt: "x" }).text).toBe("ab");
    expect(server.requests[0]!.body.model).toBe("llama3.2");
  });

  it("marks a request whose client went away as aborted", async () => {
    server = await createFakeOpenAIServer({ script: [{ text: ["a", "b", "c", "d"], delay: 40 }] });
    const controller = new AbortController();
    const result = streamText({ model: models.chat(server.url), prompt: "x", abortSignal: controller.signal });
    const types: string[] = [];
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === "text-delta") controller.abort();
    }
    expect(types).toContain("abort");
    await expect.poll(() => server!.requests[0]!.aborted).toBe(true);
  });

  it("answers 404 for an unknown route", async () => {
    server = await createFakeOpenAIServer({ script: [] });
    const response = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("no route");
    expect(server.requests).toHaveLength(0);
  });
});
