import { APICallError } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import { scriptedModel } from "../../../testing/scripted-model.js";
import { CanceledError } from "../../../runtime/errors.js";
import { memoryStore } from "../../../stores/memory-store.js";
import { createChat } from "../../create-chat.js";
import { TurnEndedError } from "../../errors.js";
import { modelInfo, modelResponder } from "./model-responder.js";
import type { TurnEvent } from "../../types.js";

async function deltas(turn: AsyncIterable<TurnEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const event of turn) if (event.type === "text-delta") out.push(event.text);
  return out;
}

const INSTRUCTIONS = "You explain software briefly and plainly. SECRET-INSTRUCTION-MARKER";

describe("modelResponder", () => {
  test("streams text deltas; the result is the whole reply with model, usage and finishReason", async () => {
    const model = scriptedModel([{ text: ["Hel", "lo", "!"], usage: { inputTokens: 12, outputTokens: 3 } }], {
      provider: "acme.chat",
      modelId: "acme-1",
    });
    const chat = createChat({ responder: modelResponder({ model, instructions: INSTRUCTIONS, version: "v2" }) });
    expect(chat.responder.kind).toBe("model");
    const turn = (await chat.createSession()).send("Hi");
    expect(await deltas(turn)).toEqual(["Hel", "lo", "!"]);
    expect(await turn.result).toEqual({
      text: "Hello!",
      metadata: {
        responder: { kind: "model", version: "v2" },
        model: { provider: "acme.chat", modelId: "acme-1" },
        usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
        finishReason: "stop",
      },
    });
  });

  test("sends the instructions as the system prompt, then the context, then the input; never journals them", async () => {
    const store = memoryStore();
    const model = scriptedModel(["First reply", "Second reply"]);
    const session = await createChat({ model, instructions: INSTRUCTIONS, store }).createSession();
    await session.send("first question").result;
    await session.send("second question").result;
    expect(model.doStreamCalls[1]!.prompt).toEqual([
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: [{ type: "text", text: "first question" }] },
      { role: "assistant", content: [{ type: "text", text: "First reply" }] },
      { role: "user", content: [{ type: "text", text: "second question" }] },
    ]);
    const journal = JSON.stringify(await store.read(session.id));
    expect(journal).toContain("second question");
    expect(journal).not.toContain("SECRET-INSTRUCTION-MARKER");
    expect(journal).not.toContain("system");
  });

  test("without instructions there is no system prompt", async () => {
    const model = scriptedModel("ok");
    await (await createChat({ model }).createSession()).send("hi").result;
    expect(model.doStreamCalls[0]!.prompt.map((m) => m.role)).toEqual(["user"]);
  });

  test("passes settings to streamText unchanged", async () => {
    const model = scriptedModel("ok");
    const settings = {
      maxOutputTokens: 800,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      stopSequences: ["END"],
      seed: 7,
      headers: { "x-trace": "abc" },
      providerOptions: { acme: { mode: "fast" } },
    };
    await (await createChat({ responder: modelResponder({ model, ...settings }) }).createSession()).send("hi").result;
    const call = model.doStreamCalls[0]!;
    expect(call).toMatchObject({
      maxOutputTokens: 800,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      stopSequences: ["END"],
      seed: 7,
      providerOptions: { acme: { mode: "fast" } },
    });
    expect(call.headers).toMatchObject({ "x-trace": "abc" });
  });

  test("maxRetries reaches the SDK's retries", async () => {
    const retryable = () =>
      new APICallError({ message: "overloaded", url: "http://x", requestBodyValues: {}, statusCode: 529, isRetryable: true });
    const model = scriptedModel(() => ({ error: retryable(), errorAt: "start" }));
    const session = await createChat({ responder: modelResponder({ model, maxRetries: 0 }) }).createSession();
    await expect(session.send("hi").result).rejects.toThrow("overloaded");
    expect(model.callCount).toBe(1);
  });

  test("a retryable provider error is retried by the AI SDK (its default retries) before the turn would fail", async () => {
    let calls = 0;
    const model = scriptedModel(() =>
      calls++ === 0
        ? { error: new APICallError({ message: "overloaded", url: "http://x", requestBodyValues: {}, statusCode: 529, isRetryable: true }), errorAt: "start" }
        : "Second try.",
    );
    // No maxRetries: the SDK's default applies (its first retry waits about 2 s).
    const session = await createChat({ model }).createSession();
    expect((await session.send("hi").result).text).toBe("Second try.");
    expect(model.callCount).toBe(2);
  });

  test("a provider error fails the turn with that error", async () => {
    const store = memoryStore();
    const boom = new Error("provider exploded");
    const model = scriptedModel([{ text: ["partial "], error: boom }]);
    const session = await createChat({ model, store }).createSession();
    const turn = session.send("hi");
    const seen = deltas(turn);
    await expect(turn.result).rejects.toBe(boom);
    expect(await seen).toEqual(["partial "]);
    expect(turn.status).toBe("failed");
    expect((await session.turns())[0]).toMatchObject({ status: "failed", error: { name: "Error", message: "provider exploded" } });

    const atStart = scriptedModel({ error: new TypeError("bad request"), errorAt: "start" });
    const other = await createChat({ model: atStart }).createSession();
    await expect(other.send("hi").result).rejects.toThrow("bad request");
  });

  test("canceling aborts the request", async () => {
    const model = scriptedModel({ text: ["one ", "two ", "three ", "four "], delay: 20 });
    const session = await createChat({ model }).createSession();
    const turn = session.send("count");
    const seen: string[] = [];
    for await (const event of turn) {
      if (event.type !== "text-delta") continue;
      seen.push(event.text);
      if (seen.length === 1) turn.cancel();
    }
    await expect(turn.result).rejects.toBeInstanceOf(CanceledError);
    expect(model.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
    expect(seen).toEqual(["one "]);
    expect((await session.turns())[0]!.status).toBe("canceled");
  });

  test("steer stops the call, keeps its text and calls the model again with the new input", async () => {
    const store = memoryStore();
    const model = scriptedModel([
      { text: ["Roses ", "are ", "red, ", "violets ", "are ", "blue."], delay: 25 },
      { text: ["and ", "tulips ", "are ", "yellow."] },
      "Glad you liked it.",
    ]);
    const session = await createChat({ model, instructions: INSTRUCTIONS, store }).createSession();
    const turn = session.send("Write a poem");
    const seen: string[] = [];
    for await (const event of turn) {
      if (event.type !== "text-delta") continue;
      seen.push(event.text);
      if (seen.length === 2) await turn.steer("Mention tulips");
    }
    const { text } = await turn.result;
    expect(seen.join("")).toBe(text);
    expect(text.startsWith("Roses are ")).toBe(true);
    expect(text.endsWith("and tulips are yellow.")).toBe(true);
    expect(model.callCount).toBe(2);
    const written = text.slice(0, text.length - "and tulips are yellow.".length);
    expect(model.doStreamCalls[1]!.prompt).toEqual([
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: [{ type: "text", text: "Write a poem" }] },
      { role: "assistant", content: [{ type: "text", text: written }] },
      { role: "user", content: [{ type: "text", text: "Mention tulips" }] },
    ]);
    const steer = (await store.read(session.id)).find((e) => e.type === "steer");
    expect(steer).toMatchObject({ input: "Mention tulips", atChar: "Roses are ".length });
    await expect(turn.steer("too late")).rejects.toBeInstanceOf(TurnEndedError);

    // The next turn sees the steered turn put back in place.
    await session.send("Thanks").result;
    const roles = model.doStreamCalls[2]!.prompt.map((m) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
  });

  test("a steer drops text not handed out yet, so the reply continues from where the steer arrived", async () => {
    const model = scriptedModel([{ text: ["a", "b", "c", "d"] }, "X"]);
    const execution = modelResponder({ model }).respond({
      input: "go",
      messages: [],
      signal: new AbortController().signal,
      sessionId: "s",
      turnId: "t",
    });
    // The text events alone: the trace's snapshots (`run-update`) come between them.
    const events = textEvents(execution.events!);
    expect(await events.next()).toEqual({ done: false, value: { type: "text-delta", text: "a" } });
    // Give the stream time to queue more text than was read.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await execution.steer!("more");
    const rest: string[] = [];
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (next.value.type === "text-delta") rest.push(next.value.text);
    }
    expect(rest).toEqual(["X"]);
    expect((await execution.result).text).toBe("aX");
    expect(model.doStreamCalls[1]!.prompt.slice(1)).toEqual([
      { role: "assistant", content: [{ type: "text", text: "a" }] },
      { role: "user", content: [{ type: "text", text: "more" }] },
    ]);
  });

  test("a caller that only awaits the result gets it without reading the events", async () => {
    const execution = modelResponder({ model: scriptedModel({ text: ["a", "b", "c"] }) }).respond({
      input: "go",
      messages: [],
      signal: new AbortController().signal,
      sessionId: "s",
      turnId: "t",
    });
    expect((await execution.result).text).toBe("abc");
  });

  test("steering a finished execution directly throws TurnEndedError", async () => {
    const responder = modelResponder({ model: scriptedModel("done") });
    const execution = responder.respond({
      input: "hi",
      messages: [],
      signal: new AbortController().signal,
      sessionId: "s",
      turnId: "t",
    });
    const seen: string[] = [];
    for await (const event of execution.events!) if (event.type === "text-delta") seen.push(event.text);
    expect((await execution.result).text).toBe("done");
    expect(seen).toEqual(["done"]);
    expect(() => execution.steer!("more")).toThrow(TurnEndedError);
  });

  test("records a string model id as a gateway model and refuses bad options", () => {
    expect(modelInfo("openai/gpt-5-mini")).toEqual({ provider: "gateway", modelId: "openai/gpt-5-mini" });
    expect(modelResponder({ model: "openai/gpt-5-mini" }).kind).toBe("model");
    expect(() => modelResponder({} as never)).toThrow(/model must be/);
    expect(() => modelResponder({ model: scriptedModel("x"), instructions: 3 as never })).toThrow(/instructions/);
  });
});

/** The text events of an execution, read one by one as `next()` asks for them. */
async function* textEvents(events: AsyncIterable<TurnEvent>): AsyncGenerator<TurnEvent, void, undefined> {
  for await (const event of events) if (event.type === "text-delta") yield event;
}
