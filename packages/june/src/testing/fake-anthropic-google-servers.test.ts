import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeAnthropicServer } from "./fake-anthropic-server.js";
import { createFakeGoogleServer } from "./fake-google-server.js";
import type { FakeModelRequest, FakeModelScript } from "./fake-provider-http.js";

/** The two servers behind one face, each with the real provider package pointed at it. */
interface Fake {
  url: string;
  requests: readonly FakeModelRequest[];
  close(): Promise<void>;
}
interface Provider {
  name: string;
  start(script: FakeModelScript, apiKey?: string): Promise<Fake>;
  model(url: string, apiKey?: string): LanguageModel;
  /** The request's messages, as sent. */
  messages(request: FakeModelRequest): unknown;
  keyHeader: string;
  /** The status a bad key gets. */
  badKeyStatus: number;
}

const providers: Provider[] = [
  {
    name: "anthropic",
    start: (script, apiKey) => createFakeAnthropicServer({ script, apiKey }),
    model: (url, apiKey = "sk-ant-test") => createAnthropic({ baseURL: url, apiKey })("claude-sonnet-4-5"),
    messages: (request) => request.body.messages,
    keyHeader: "x-api-key",
    badKeyStatus: 401,
  },
  {
    name: "google",
    start: (script, apiKey) => createFakeGoogleServer({ script, apiKey }),
    model: (url, apiKey = "google-test") => createGoogleGenerativeAI({ baseURL: url, apiKey })("gemini-2.5-flash"),
    messages: (request) => request.body.contents,
    keyHeader: "x-goog-api-key",
    badKeyStatus: 400,
  },
];

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
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

describe.each(providers)("the fake $name server with the real provider package", (provider) => {
  it("streams text deltas, reports usage and records the request", async () => {
    fake = await provider.start([{ text: ["Hel", "lo", " there"], usage: { inputTokens: 7, outputTokens: 3 } }]);
    const result = streamText({ model: provider.model(fake.url), system: "Be brief.", prompt: "Say hello", maxRetries: 0 });
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") deltas.push(part.text);
      if (part.type === "error") throw part.error;
    }
    expect(deltas).toEqual(["Hel", "lo", " there"]);
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([7, 3]);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.headers[provider.keyHeader]).toBeDefined();
    expect(JSON.stringify(provider.messages(request))).toContain("Say hello");
    expect(JSON.stringify(request.body)).toContain("Be brief.");
  });

  it("streams a tool call that the SDK executes, then the follow-up reply", async () => {
    fake = await provider.start([
      { text: "Let me look. ", toolCalls: [{ toolName: "weather", input: { city: "Oslo" } }] },
      { text: ["It is ", "sunny in Oslo."], delay: 2 },
    ]);
    const result = streamText({
      model: provider.model(fake.url),
      prompt: "Weather in Oslo?",
      tools: { weather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
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
    expect((await result.steps).map((step) => step.text)).toEqual(["Let me look. ", "It is sunny in Oslo."]);
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(fake.requests[0]!.body)).toContain('"weather"');
    expect(JSON.stringify(provider.messages(fake.requests[1]!))).toContain("sunny in Oslo");
  });

  it("answers without streaming (generateText) with text and tool calls", async () => {
    fake = await provider.start([{ toolCalls: [{ toolName: "weather", input: { city: "Rome" } }] }, "Sunny in Rome."]);
    const result = await generateText({
      model: provider.model(fake.url),
      prompt: "Weather in Rome?",
      tools: { weather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(result.text).toBe("Sunny in Rome.");
    expect(result.steps[0]!.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["weather", { city: "Rome" }]]);
  });

  it("an error status reaches the SDK as an APICallError with the provider's message", async () => {
    fake = await provider.start([{ error: { status: 401, message: "bad credentials" } }]);
    const failure = await generateText({ model: provider.model(fake.url), prompt: "Hi", maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect((failure as APICallError).statusCode).toBe(401);
    expect((failure as APICallError).message).toBe("bad credentials");
  });

  it("a 5xx is retried: each retry takes the next entry", async () => {
    fake = await provider.start([{ error: { status: 503, message: "overloaded" } }, "Back."]);
    const result = streamText({ model: provider.model(fake.url), prompt: "Hi", maxRetries: 1 });
    expect(await result.text).toBe("Back.");
    expect(fake.requests).toHaveLength(2);
  });

  it("an error at the end of a stream arrives after the text", async () => {
    fake = await provider.start([{ text: ["Partial ", "reply"], error: { message: "stream broke", at: "end" } }]);
    const result = streamText({ model: provider.model(fake.url), prompt: "Hi", maxRetries: 0 });
    const seen: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") seen.push(part.text);
      if (part.type === "error") seen.push(`error: ${JSON.stringify(part.error)}`);
    }
    expect(seen.slice(0, 2)).toEqual(["Partial ", "reply"]);
    expect(seen.some((text) => text.startsWith("error:") && text.includes("stream broke"))).toBe(true);
  });

  it("with apiKey, a request with another key is refused the way the provider refuses it", async () => {
    fake = await provider.start(["Hello."], "the-right-key");
    const failure = await generateText({ model: provider.model(fake.url, "wrong-key"), prompt: "Hi", maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect((failure as APICallError).statusCode).toBe(provider.badKeyStatus);
    const ok = await generateText({ model: provider.model(fake.url, "the-right-key"), prompt: "Hi", maxRetries: 0 });
    expect(ok.text).toBe("Hello.");
    expect(fake.requests.map((request) => request.headers[provider.keyHeader])).toEqual(["wrong-key", "the-right-key"]);
  });

  it("a request the script does not provide is a 400 that says so", async () => {
    fake = await provider.start(["only one"]);
    await generateText({ model: provider.model(fake.url), prompt: "Hi", maxRetries: 0 });
    const failure = await generateText({ model: provider.model(fake.url), prompt: "Again", maxRetries: 0 }).catch((e: unknown) => e);
    expect((failure as APICallError).message).toContain("no script entry for request 2");
  });

  it("a canceled request is marked aborted", async () => {
    fake = await provider.start([{ text: Array.from({ length: 50 }, (_, i) => `w${i} `), delay: 20 }]);
    const controller = new AbortController();
    const result = streamText({ model: provider.model(fake.url), prompt: "Long", abortSignal: controller.signal, maxRetries: 0 });
    for await (const part of result.textStream) {
      if (part) break;
    }
    controller.abort();
    for (let i = 0; i < 100 && !fake.requests[0]!.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests[0]!.aborted).toBe(true);
  });
});
