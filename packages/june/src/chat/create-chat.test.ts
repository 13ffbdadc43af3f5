import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConflictError, InvalidSessionIdError, SessionNotFoundError } from "../stores/errors.js";
import { fileStore, memoryStore } from "../stores/index.js";
import type { ChatStore } from "../stores/types.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { createChat } from "./create-chat.js";
import { recentTurns } from "./context/recent-turns.js";
import type { Responder } from "./types.js";

const echo: Responder = {
  respond: ({ input, messages }) => ({ result: Promise.resolve({ text: `${input} (${messages.length / 2} earlier)` }) }),
};

/** A store that records which methods were called. */
function spyStore(inner: ChatStore = memoryStore()) {
  const calls: string[] = [];
  const store = Object.fromEntries(
    Object.entries(inner).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls.push(name);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as ChatStore;
  return { store, calls };
}

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "june-chat-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("createChat", () => {
  test("takes a responder, or a model as shorthand for modelResponder", async () => {
    const custom = createChat({ responder: echo });
    expect(custom.responder).toBe(echo);
    const model = scriptedModel("Hi there");
    const chat = createChat({ model, instructions: "Be brief.", temperature: 0.5, version: "p1" });
    expect(chat.responder).toMatchObject({ kind: "model", version: "p1" });
    const { text, metadata } = await (await chat.createSession()).send("hello").result;
    expect(text).toBe("Hi there");
    expect(metadata.responder).toEqual({ kind: "model", version: "p1" });
    expect(model.doStreamCalls[0]).toMatchObject({ temperature: 0.5 });
    expect(model.doStreamCalls[0]!.prompt[0]).toEqual({ role: "system", content: "Be brief." });
  });

  test("refuses bad options with errors that name them", () => {
    expect(() => createChat(undefined as never)).toThrow(TypeError);
    expect(() => createChat({} as never)).toThrow(/responder/);
    expect(() => createChat({ responder: echo, model: scriptedModel("x") } as never)).toThrow(/not both/);
    expect(() => createChat({ responder: {} as never })).toThrow(/respond\(\)/);
    expect(() => createChat({ responder: { ...echo, version: 2 as never } })).toThrow(/responder\.version/);
    expect(() => createChat({ responder: echo, store: {} as never })).toThrow(/store/);
    expect(() => createChat({ responder: echo, context: "full" as never })).toThrow(/context/);
    expect(() => createChat({ responder: echo, maxInputChars: 0 })).toThrow(/maxInputChars/);
    expect(() => createChat({ responder: echo, idGenerator: 1 as never })).toThrow(/idGenerator/);
  });

  test("defaults to a memory store and the full context", async () => {
    const chat = createChat({ responder: echo });
    const session = await chat.createSession();
    await session.send("a").result;
    expect((await session.send("b").result).text).toBe("b (1 earlier)");
    const entries = await chat.store.read(session.id);
    expect(entries.at(-2)).toMatchObject({ type: "turn-start", context: { builder: "fullContext" } });
  });

  test("uses the idGenerator for sessions and turns", async () => {
    let n = 0;
    const chat = createChat({ responder: echo, idGenerator: (kind) => `${kind}-${++n}` });
    const session = await chat.createSession();
    expect(session.id).toBe("session-1");
    expect(session.send("hi").id).toBe("turn-2");
    const bad = createChat({ responder: echo, idGenerator: () => "../escape" });
    await expect(bad.createSession()).rejects.toBeInstanceOf(InvalidSessionIdError);
    // A turn id no store keeps exactly (a lone surrogate, NUL) is refused, not stored changed.
    for (const turnId of ["turn-\ud800", "turn-\u0000"]) {
      const lone = createChat({ responder: echo, idGenerator: (kind) => (kind === "session" ? "s-1" : turnId) });
      const opened = await lone.createSession();
      let error: unknown;
      try {
        await opened.send("hi").result;
      } catch (e) {
        error = e;
      }
      expect(String(error)).toMatch(/idGenerator.*turn id it returned (is not well-formed Unicode|holds a NUL)/);
      expect(JSON.stringify(await lone.store.read("s-1"))).not.toMatch(/turn-start/);
    }
  });
});

describe("sessions", () => {
  test("createSession journals the session at once, with its id and metadata", async () => {
    const store = memoryStore();
    const chat = createChat({ responder: echo, store });
    const session = await chat.createSession({ id: "support-1", metadata: { user: "ann" } });
    expect(session.id).toBe("support-1");
    expect(await store.read("support-1")).toEqual([
      expect.objectContaining({ type: "session", seq: 1, id: "support-1", metadata: { user: "ann" } }),
    ]);
    await expect(chat.createSession({ id: "support-1" })).rejects.toBeInstanceOf(ConflictError);
  });

  test("invalid session ids are refused before the store is touched", async () => {
    const { store, calls } = spyStore();
    const chat = createChat({ responder: echo, store });
    for (const id of ["../etc/passwd", "a/b", "", "x".repeat(129), 42 as never]) {
      await expect(chat.createSession({ id })).rejects.toBeInstanceOf(InvalidSessionIdError);
      await expect(chat.openSession(id)).rejects.toBeInstanceOf(InvalidSessionIdError);
      await expect(chat.deleteSession(id)).rejects.toBeInstanceOf(InvalidSessionIdError);
    }
    expect(calls).toEqual([]);
  });

  test("openSession finds an existing session, SessionNotFoundError otherwise", async () => {
    const chat = createChat({ responder: echo });
    await expect(chat.openSession("missing")).rejects.toBeInstanceOf(SessionNotFoundError);
    const created = await chat.createSession({ id: "here" });
    await created.send("one").result;
    const opened = await chat.openSession("here");
    expect((await opened.turns()).map((t) => t.input)).toEqual(["one"]);
    expect((await opened.send("two").result).text).toBe("two (1 earlier)");
  });

  test("listSessions is newest first with a title and turn count; deleteSession removes one", async () => {
    const chat = createChat({ responder: echo });
    const first = await chat.createSession({ id: "first" });
    await first.send("What is a monad, in one line?").result;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await chat.createSession({ id: "second" });
    await second.send("hi").result;
    await second.send("again").result;
    const list = await chat.listSessions();
    expect(list.map((s) => [s.id, s.turnCount])).toEqual([
      ["second", 2],
      ["first", 1],
    ]);
    expect(list[1]!.title).toContain("What is a monad");
    expect(await chat.listSessions({ limit: 1 })).toHaveLength(1);
    expect(await chat.deleteSession("first")).toBe(true);
    expect(await chat.deleteSession("first")).toBe(false);
    await expect(chat.openSession("first")).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  test("a fileStore session reopens in a new chat with its turns and context", async () => {
    const dir = await tmp();
    const model = scriptedModel(["Paris.", "About 2.1 million.", "It is 105 km²."]);
    const instructions = "You are a geography tutor. INSTRUCTION-MARKER-42";
    const chat = createChat({ model, instructions, store: fileStore(dir) });
    const session = await chat.createSession({ id: "geo" });
    await session.send("Capital of France?").result;
    await session.send("Population?").result;

    const again = createChat({ model, instructions, store: fileStore(dir), context: recentTurns(1) });
    const reopened = await again.openSession("geo");
    expect((await reopened.turns()).map((t) => [t.input, t.status, t.text])).toEqual([
      ["Capital of France?", "completed", "Paris."],
      ["Population?", "completed", "About 2.1 million."],
    ]);
    expect((await reopened.messages()).map((m) => m.content)).toEqual(["Population?", "About 2.1 million."]);
    await reopened.send("Area?").result;
    expect(model.doStreamCalls[2]!.prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect((await again.listSessions())[0]).toMatchObject({ id: "geo", turnCount: 3 });

    // Instructions are configuration: in the prompt, never in the files.
    for (const file of await readdir(dir)) {
      const content = await readFile(join(dir, file), "utf8").catch(() => "");
      expect(content).not.toContain("INSTRUCTION-MARKER-42");
    }
    const journal = await readFile(join(dir, "geo.jsonl"), "utf8");
    expect(journal).toContain("Capital of France?");
  });
});
