// The seed's "Model chat" and "Custom responders" code blocks (../../../shared/seed/responders.md), run as
// written with only the model swapped for a scripted one and the file store in a temporary directory.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { scriptedModel, type ScriptedModel } from "june/testing";
import { CanceledError } from "june";
import { createChat, fileStore, modelResponder, type ChatStore, type Responder } from "june/chat";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "june-seed-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("seed: model chat", () => {
  function seedChat(model: ScriptedModel) {
    // ---- the seed's block, `openai("gpt-5-mini")` swapped for `model`, ".june/chat" for a temp dir ----
    const chat = createChat({
      responder: modelResponder({
        model,
        instructions: "You explain software briefly and plainly.",
        temperature: 0.2,
        maxOutputTokens: 800,
      }),
      store: fileStore(join(dir, ".june/chat")),
    });
    // ---- end of the seed's block ----
    return chat;
  }

  test("sends the instructions, then the conversation, then the new input; settings pass through", async () => {
    const model = scriptedModel(["A closure keeps its scope.", "It remembers variables."]);
    const chat = seedChat(model);
    const session = await chat.createSession();
    await session.send("What is a closure?").result;
    await session.send("Why does that matter?").result;
    const call = model.doStreamCalls[1]!;
    expect(call.prompt).toEqual([
      { role: "system", content: "You explain software briefly and plainly." },
      { role: "user", content: [{ type: "text", text: "What is a closure?" }] },
      { role: "assistant", content: [{ type: "text", text: "A closure keeps its scope." }] },
      { role: "user", content: [{ type: "text", text: "Why does that matter?" }] },
    ]);
    expect(call).toMatchObject({ temperature: 0.2, maxOutputTokens: 800 });
  });

  test("instructions are configuration: never stored, and changing them changes later turns only", async () => {
    const model = scriptedModel(["First.", "Second."]);
    const session = await seedChat(model).createSession({ id: "config" });
    await session.send("One?").result;
    const journal = await readFile(join(dir, ".june/chat", "config.jsonl"), "utf8");
    expect(journal).not.toContain("You explain software briefly and plainly.");

    const changed = createChat({
      responder: modelResponder({ model, instructions: "Answer in French." }),
      store: fileStore(join(dir, ".june/chat")),
    });
    const reopened = await changed.openSession("config");
    await reopened.send("Two?").result;
    expect(model.doStreamCalls[1]!.prompt[0]).toEqual({ role: "system", content: "Answer in French." });
    expect((await reopened.turns()).map((t) => t.text)).toEqual(["First.", "Second."]);
  });

  test("text arrives as text-delta events adding up to result.text; the turn records model, usage and finishReason", async () => {
    const model = scriptedModel({ text: ["Streams ", "are ", "lazy."], usage: { inputTokens: 20, outputTokens: 4 } });
    const chat = seedChat(model);
    const session = await chat.createSession({ id: "stream" });
    const turn = session.send("What is a stream?");
    let streamed = "";
    for await (const event of turn) if (event.type === "text-delta") streamed += event.text;
    const result = await turn.result;
    expect(streamed).toBe(result.text);
    expect(result.text).toBe("Streams are lazy.");
    expect(result.metadata).toEqual({
      responder: { kind: "model" },
      model: { provider: "june-test", modelId: "scripted" },
      usage: { inputTokens: 20, outputTokens: 4, totalTokens: 24 },
      finishReason: "stop",
    });
    const stored = (await readFile(join(dir, ".june/chat", "stream.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(stored.at(-1)).toMatchObject({ type: "turn-end", status: "completed", metadata: result.metadata });
    // Raw provider requests and responses are never stored.
    expect(JSON.stringify(stored)).not.toMatch(/response-0|maxOutputTokens|temperature/);
  });

  test("a provider error fails the turn with that error; canceling aborts the request", async () => {
    const failure = new Error("429 Too Many Requests");
    const session = await seedChat(scriptedModel({ error: failure, errorAt: "start" })).createSession();
    await expect(session.send("Hi").result).rejects.toBe(failure);

    const slow = scriptedModel({ text: ["a", "b", "c", "d"], delay: 30 });
    const other = await seedChat(slow).createSession();
    const turn = other.send("Count");
    for await (const event of turn) if (event.type === "text-delta") turn.cancel();
    await expect(turn.result).rejects.toBeInstanceOf(CanceledError);
    expect(slow.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
  });

  test("createChat({ model, instructions }) is shorthand for the same responder", async () => {
    const model = scriptedModel("Short answer.");
    const chat = createChat({ model, instructions: "You explain software briefly and plainly." });
    expect(chat.responder.kind).toBe("model");
    expect((await (await chat.createSession()).send("Hi").result).text).toBe("Short answer.");
    expect(model.doStreamCalls[0]!.prompt[0]).toEqual({ role: "system", content: "You explain software briefly and plainly." });
  });
});

describe("seed: custom responders", () => {
  test("the shout responder, as written", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const store: ChatStore = fileStore(dir);
    // ---- the seed's block (`declare const store` bound above) ----
    const shout: Responder = {
      respond({ input, messages, signal }) {
        const text = `${input.toUpperCase()} (${messages.length / 2} earlier turns)`;

        async function* events() {
          for (const word of text.split(" ")) {
            signal.throwIfAborted();
            yield { type: "text-delta" as const, text: `${word} ` };
          }
        }

        return {
          events: events(),
          result: Promise.resolve({ text }),
        };
      },
    };

    const session = await createChat({ responder: shout, store }).createSession();
    console.log((await session.send("hi").result).text);
    // ---- end of the seed's block ----
    expect(log).toHaveBeenCalledWith("HI (0 earlier turns)");
    log.mockRestore();

    // Its events arrive in order, the next turn sees the first, and provenance says "custom".
    const turn = session.send("again");
    const words: string[] = [];
    for await (const event of turn) if (event.type === "text-delta") words.push(event.text);
    const result = await turn.result;
    expect(result.text).toBe("AGAIN (1 earlier turns)");
    expect(words).toEqual(["AGAIN ", "(1 ", "earlier ", "turns) "]);
    expect(result.metadata).toEqual({ responder: { kind: "custom" } });
  });

  test("kind, id and version are recorded on every turn; only model, usage and finishReason are kept", async () => {
    const responder: Responder = {
      kind: "service",
      id: "support-bot",
      version: "2024-06",
      respond: () => ({
        result: Promise.resolve({
          text: "ok",
          metadata: { model: { provider: "acme", modelId: "m" }, finishReason: "stop", trace: ["dropped"] } as never,
        }),
      }),
    };
    const session = await createChat({ responder, store: fileStore(dir) }).createSession();
    const { metadata } = await session.send("hi").result;
    expect(metadata).toEqual({
      responder: { kind: "service", id: "support-bot", version: "2024-06" },
      model: { provider: "acme", modelId: "m" },
      finishReason: "stop",
    });
    expect((await session.turns())[0]!.metadata).toEqual(metadata);
  });

  test("honoring signal stops work on cancel; a rejected result or a throwing stream fails the turn", async () => {
    let stoppedAt = -1;
    const counter: Responder = {
      respond({ signal }) {
        let i = 0;
        async function* events() {
          try {
            for (;; i++) {
              signal.throwIfAborted();
              yield { type: "text-delta" as const, text: `${i} ` };
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          } finally {
            stoppedAt = i;
          }
        }
        return { events: events(), result: new Promise(() => {}) };
      },
    };
    const session = await createChat({ responder: counter, store: fileStore(dir) }).createSession();
    const turn = session.send("count");
    let seen = 0;
    for await (const _ of turn) if (++seen === 2) turn.cancel();
    await expect(turn.result).rejects.toBeInstanceOf(CanceledError);
    await vi.waitFor(() => expect(stoppedAt).toBeGreaterThanOrEqual(1));
    expect(turn.status).toBe("canceled");

    const rejecting: Responder = { respond: () => ({ result: Promise.reject(new Error("backend down")) }) };
    const s2 = await createChat({ responder: rejecting, store: fileStore(dir) }).createSession();
    await expect(s2.send("hi").result).rejects.toThrow("backend down");

    const throwing: Responder = {
      respond: () => ({
        result: Promise.resolve({ text: "x" }),
        events: (async function* () {
          yield { type: "text-delta" as const, text: "x" };
          throw new Error("stream cut");
        })(),
      }),
    };
    const s3 = await createChat({ responder: throwing, store: fileStore(dir) }).createSession();
    const failed = s3.send("hi");
    await expect(failed.result).rejects.toThrow("stream cut");
    expect(failed.status).toBe("failed");
  });
});
