import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonSchema, tool, type ModelMessage } from "ai";
import { MockEmbeddingModelV3 } from "ai/test";
import { afterAll, describe, expect, it, vi } from "vitest";
import { Agent, Memory, Step, Tool } from "../../index.js";
import { agentResponder, createChat, fileStore, memoryStore, TurnSuspendedError } from "../index.js";
import type { RecallErrorEvent } from "./memory-options.js";
import type { TurnMemory } from "./memory-options.js";
import { bagOfWordsEmbedding, scriptedModel, type ScriptEntry } from "../../testing/index.js";

const root = mkdtempSync(join(tmpdir(), "june-memory-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FACT = "Alice works in metric units. Her project is called Lark.";
const promptText = (call: { prompt: unknown }) => JSON.stringify(call.prompt);

/** The agent's model: stores FACT with update_memory on its first call of a turn, then answers. */
function rememberingModel() {
  return scriptedModel(({ options: call }): ScriptEntry => {
    const prompt = call.prompt as unknown as ModelMessage[];
    const called = prompt.some((m) => m.role === "tool");
    if (!called) return { toolCalls: [{ toolName: "update_memory", input: { memory: FACT }, toolCallId: "call-mem" }] };
    return "Noted.";
  });
}

describe("memory across sessions (one fileStore, a scripted model, bag-of-words embeddings)", () => {
  const store = fileStore(join(root, "chat"));
  const embeddingModel = bagOfWordsEmbedding();
  const memory = { working: { scope: "owner" as const }, recall: { embeddingModel, topK: 2 } };
  const agentModel = rememberingModel();
  const rendered: TurnMemory[] = [];
  const agentChat = createChat({
    store,
    memory,
    responder: agentResponder({
      render: ({ input, messages, memory: remembered }) => {
        rendered.push(remembered);
        return (
          <Agent model={agentModel}>
            <Memory />
            <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
          </Agent>
        );
      },
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
  const chatModel = scriptedModel(({ options: call }) => (promptText(call).includes("Lark") ? "Your project is Lark." : "I do not know."));
  const modelChat = createChat({ store, memory, model: chatModel, instructions: "Be brief." });

  it("an agent chat with <Memory /> is offered update_memory and keeps what its model stores for alice", async () => {
    const session = await agentChat.createSession({ owner: "alice" });
    const result = await session.send("I use metric units and my project is Lark.").result;
    expect(result.text).toBe("Noted.");
    const tools = agentModel.doStreamCalls[0]!.tools ?? [];
    expect(tools.map((t) => t.name)).toEqual(["update_memory"]);
    const kept = await agentChat.memory("alice").get();
    expect(kept).toMatchObject({ version: 1, text: FACT, sessionId: session.id });
    // A second turn storing the same text makes no new version.
    await session.send("Remember that again.").result;
    expect((await agentChat.memory("alice").versions()).map((v) => v.version)).toEqual([1]);
    // Kept in the store's memory area, never in the journal; the tool's call is not reply text.
    const journal = readFileSync(join(root, "chat", `${session.id}.jsonl`), "utf8");
    expect(journal).not.toContain(FACT);
    expect(readdirSync(join(root, "chat", ".memory", "working"))).toHaveLength(1);
    expect(await agentChat.memory("bob").get()).toBeUndefined();
    await agentChat.memory("alice").indexed();
  });

  it("a new model-chat session of alice's has her memory in its context after the instructions; bob's has none", async () => {
    const alice = await modelChat.createSession({ owner: "alice" });
    await alice.send("What units do I use?").result;
    const call = chatModel.doStreamCalls.at(-1)!;
    const prompt = call.prompt as unknown as { role: string; content: unknown }[];
    // In the system prompt, right after the instructions, marked as memory.
    expect(prompt[0]!.role).toBe("system");
    expect(String(prompt[0]!.content).startsWith("Be brief.\n\n<memory>")).toBe(true);
    expect(String(prompt[0]!.content)).toContain(FACT);
    expect(prompt.filter((m) => m.role === "system")).toHaveLength(1);
    const turn = (await alice.turns()).at(-1)!;
    expect(turn.context?.memory?.working).toEqual({ scope: "owner", version: 1 });

    const bob = await modelChat.createSession({ owner: "bob" });
    await bob.send("What units do I use?").result;
    expect(promptText(chatModel.doStreamCalls.at(-1)!)).not.toContain("metric");
    expect((await bob.turns()).at(-1)!.context?.memory).toBeUndefined();
    await modelChat.memory("alice").indexed();
  });

  it("a question in a new session of alice's brings back her earlier session's turn (never into bob's), named in the turn's provenance", async () => {
    const first = (await agentChat.listSessions({ owner: "alice" })).at(-1)!;
    const firstTurn = (await (await agentChat.openSession(first.id)).turns())[0]!;
    await modelChat.memory("alice").set("");
    const later = await modelChat.createSession({ owner: "alice" });
    const calls = embeddingModel.doEmbedCalls.length;
    const result = await later.send("Which project is Lark again, metric units?").result;
    expect(embeddingModel.doEmbedCalls.length).toBe(calls + 1);
    expect(result.text).toBe("Your project is Lark.");
    const provenance = (await later.turns())[0]!.context?.memory;
    expect(provenance?.recalled?.[0]).toMatchObject({ sessionId: first.id, turnId: firstTurn.id, score: expect.any(Number) });
    const sent = String((chatModel.doStreamCalls.at(-1)!.prompt as unknown as { content: unknown }[])[0]!.content);
    expect(sent).toContain(`session="${first.id}" turn="${firstTurn.id}"`);
    expect(sent).toContain("my project is Lark");

    const bob = await modelChat.createSession({ owner: "bob" });
    await bob.send("Which project is Lark again, metric units?").result;
    expect(promptText(chatModel.doStreamCalls.at(-1)!)).not.toContain("my project is Lark");
    const bobs = new Set((await modelChat.listSessions({ owner: "bob" })).map((s) => s.id));
    const recalledForBob = (await bob.turns())[0]!.context?.memory?.recalled ?? [];
    expect(recalledForBob.every((r) => bobs.has(r.sessionId))).toBe(true);
    await modelChat.memory("alice").set(FACT);
    await modelChat.memory("alice").indexed();
  });

  it("an agent chat's render is handed alice's memory; after forgetMemory('alice') neither the memory nor the recalled turn comes back", async () => {
    rendered.length = 0;
    const session = await agentChat.createSession({ owner: "alice" });
    await session.send("Which project is Lark, metric units?").result;
    expect(rendered[0]!.working).toBe(FACT);
    expect(rendered[0]!.recalled.length).toBeGreaterThan(0);
    expect(rendered[0]!.recalled[0]!.text).toContain("Lark");

    await agentChat.forgetMemory("alice");
    expect(await agentChat.memory("alice").get()).toBeUndefined();
    expect(await agentChat.memory("alice").versions()).toEqual([]);
    const after = await modelChat.createSession({ owner: "alice" });
    await after.send("Which project is Lark again, metric units?").result;
    const prompt = promptText(chatModel.doStreamCalls.at(-1)!);
    expect(prompt).not.toContain("<memory>");
    expect(prompt).not.toContain("my project is Lark");
    expect((await after.turns())[0]!.context?.memory).toBeUndefined();
  });

  it("masks credentials before a turn is embedded or kept in the recall index, and before working memory is kept", async () => {
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const dave = await modelChat.createSession({ owner: "dave" });
    await dave.send(`My key is ${secret} for the Lark project`).result;
    await modelChat.memory("dave").indexed();
    const embedded = embeddingModel.doEmbedCalls.flatMap((call) => call.values);
    expect(embedded.some((v) => v.includes("Lark project"))).toBe(true);
    expect(embedded.join("\n")).not.toContain(secret);
    const files = readdirSync(join(root, "chat", ".memory", "recall")).map((f) => readFileSync(join(root, "chat", ".memory", "recall", f), "utf8"));
    expect(files.join("\n")).toContain("[redacted]");
    expect(files.join("\n")).not.toContain(secret);
    expect((await modelChat.memory("dave").set(`api_key=${secret}`)).text).not.toContain(secret);
  });

  it("deleting a session removes its turns from recall", async () => {
    const carol = await modelChat.createSession({ owner: "carol" });
    await carol.send("My cat is named Pixel.").result;
    await modelChat.memory("carol").indexed();
    const ask = async () => {
      const s = await modelChat.createSession({ owner: "carol" });
      await s.send("What is my cat named, Pixel?").result;
      return (await s.turns())[0]!.context?.memory?.recalled ?? [];
    };
    expect((await ask()).map((r) => r.sessionId)).toContain(carol.id);
    await modelChat.deleteSession(carol.id);
    expect((await ask()).map((r) => r.sessionId)).not.toContain(carol.id);
  });
});

describe("recall that fails says so (a turn's provenance, recall.onError, else a console line) and never fails the turn", () => {
  const KEY = "sk-live-0123456789abcdefghijklmnop";
  /** An embedding model that fails while `down` is set, with a credential in its message. */
  function flakyEmbedding() {
    const words = bagOfWordsEmbedding();
    const model = new MockEmbeddingModelV3({
      provider: "june-testing",
      modelId: "flaky",
      maxEmbeddingsPerCall: 64,
      supportsParallelCalls: true,
      doEmbed: async (options) => {
        if (model.down) throw new Error(`embeddings are down (key ${KEY})`);
        return words.doEmbed(options);
      },
    }) as MockEmbeddingModelV3 & { down: boolean };
    model.down = true;
    return model;
  }

  it("a turn whose search failed completes, journals recallError (masked), and onError hears of the search and of the indexing", async () => {
    const embeddingModel = flakyEmbedding();
    const told: RecallErrorEvent[] = [];
    const chat = createChat({
      store: memoryStore(),
      model: scriptedModel(() => "Noted."),
      memory: {
        recall: {
          embeddingModel,
          onError: (event) => {
            told.push(event);
            throw new Error("a handler that throws is not the turn's failure");
          },
        },
      },
    });
    const session = await chat.createSession({ owner: "dana" });
    const turn = await session.send("My dog is called Rex.").result;
    expect(turn.text).toBe("Noted.");
    const [record] = await session.turns();
    expect(record!.status).toBe("completed");
    expect(record!.context?.memory?.recallError).toEqual({ name: "Error", message: expect.stringContaining("embeddings are down") });
    expect(JSON.stringify(record!.context?.memory)).not.toContain(KEY);
    await chat.memory("dana").indexed();
    expect(told.map((e) => e.phase)).toEqual(["search", "index"]);
    expect(told[0]).toMatchObject({ phase: "search", sessionId: session.id });
    expect(told[1]).toMatchObject({ phase: "index", turns: [{ sessionId: session.id, turnId: record!.id }] });

    // The model back: the next turn's search works (nothing recalled yet: the first turn was never indexed), and it is indexed.
    embeddingModel.down = false;
    await (await chat.createSession({ owner: "dana" })).send("What is my dog called?").result;
    await chat.memory("dana").indexed();
    expect(told).toHaveLength(2);
  });

  it("without onError, one console.warn line says what failed, the credential masked", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const chat = createChat({ store: memoryStore(), model: scriptedModel("Noted."), memory: { recall: { embeddingModel: flakyEmbedding() } } });
      const session = await chat.createSession({ owner: "erin" });
      await session.send("Remember the blue door.").result;
      await chat.memory("erin").indexed();
      const lines = warn.mock.calls.map((args) => args.join(" "));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`june: memory recall failed (search): a turn of session ${session.id} went on without recall: Error: embeddings are down`);
      expect(lines[1]).toContain("june: memory recall failed (index): 1 finished turn was not indexed for recall");
      expect(lines.join("\n")).not.toContain(KEY);
    } finally {
      warn.mockRestore();
    }
  });

  it("createChat names a recall.onError that is not a function", () => {
    expect(() => createChat({ store: memoryStore(), model: scriptedModel("x"), memory: { recall: { embeddingModel: bagOfWordsEmbedding(), onError: "log" as never } } })).toThrow(
      "createChat({ memory }): `recall.onError` must be a function",
    );
  });
});

describe("a durable turn resumed in another chat (another process, as far as the store knows) renders with the memory it started with", () => {
  it("working memory at the journaled version, the same recalled turns; the resumed turn is indexed once it completes", async () => {
    const dir = join(root, "durable");
    const embeddingModel = bagOfWordsEmbedding();
    const memory = { working: { scope: "owner" as const }, recall: { embeddingModel, topK: 2 } };
    const rendered: TurnMemory[] = [];
    const model = scriptedModel(({ options: call }): ScriptEntry => {
      const prompt = call.prompt as unknown as ModelMessage[];
      if (prompt.some((m) => m.role === "tool")) return "Deployed to staging.";
      if (JSON.stringify(prompt.at(-1)).includes("Please deploy")) return { toolCalls: [{ toolName: "deploy", input: { env: "staging" }, toolCallId: "call-deploy" }] };
      return "Noted.";
    });
    const deploy = tool({ description: "Deploy", inputSchema: jsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }), needsApproval: true, execute: async ({ env }) => `live on ${env}` });
    const chatOver = () =>
      createChat({
        store: fileStore(dir),
        memory,
        responder: agentResponder({
          durable: { suspendAfterMs: 20 },
          render: ({ input, messages, memory: remembered }) => {
            rendered.push(remembered);
            return (
              <Agent model={model}>
                <Tool name="deploy" value={deploy} />
                <Step id="work" prompt={[...messages, { role: "user", content: `${input}\n${remembered.working ?? ""}` }]} />
              </Agent>
            );
          },
          reply: (result) => String(result.steps.work),
        }),
      });
    const one = chatOver();
    await one.memory("gus").set("Gus deploys to staging first.");
    const earlier = await one.createSession({ owner: "gus" });
    await earlier.send("Staging is where Gus tries the docs first.").result;
    await one.memory("gus").indexed();

    const session = await one.createSession({ owner: "gus" });
    const turn = session.send("Please deploy the staging docs.");
    await expect(turn.result).rejects.toBeInstanceOf(TurnSuspendedError);
    const atStart = rendered.at(-1)!;
    expect(atStart.working).toBe("Gus deploys to staging first.");
    expect(atStart.recalled.map((r) => r.sessionId)).toEqual([earlier.id]);
    // Memory moves on meanwhile: the resumed turn still gets what it started with.
    await one.memory("gus").set("Gus now deploys to production.");

    const two = chatOver();
    const again = await two.openSession(session.id);
    const live = await again.resume(turn.id);
    const afterResume = rendered.at(-1)!;
    expect(afterResume).not.toBe(atStart);
    expect(afterResume).toEqual(atStart);
    live.approve(live.requests[0]!.id);
    expect((await live.result).text).toBe("Deployed to staging.");
    await two.memory("gus").indexed();
    const asked = await two.createSession({ owner: "gus" });
    await asked.send("Which staging docs went live?").result;
    expect(((await asked.turns())[0]!.context?.memory?.recalled ?? []).map((r) => r.sessionId)).toContain(session.id);
  });
});
