/**
 * End-to-end checks of chat sessions on a real `fileStore`, with the real `streamText` and scripted models:
 * a process killed mid-turn, two processes sending to one session, what reaches the files on disk, bad
 * input, and responders that fail in every way the contract allows.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { APICallError, jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, fileStore, InputTooLargeError, InvalidSessionIdError, modelResponder, type Responder, type TurnEvent, type RespondOptions, type Turn } from "june/chat";
import { contextTurnIds, type JournalEntry } from "june/store-kit";
import { scriptedModel } from "june/testing";
import { afterAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild } from "../__fixtures__/line-child.js";

const fixture = fileURLToPath(new URL("./__fixtures__/chat-turn.mjs", import.meta.url));

const root = mkdtempSync(join(tmpdir(), "june-chat-procs-"));
afterAll(() => {
  killLineChildren();
  rmSync(root, { recursive: true, force: true });
});

/** What a child prints: one JSON object a line. */
interface ChildLine {
  event: string;
  turnId?: string;
  pid?: number;
  text?: string;
  deltas?: string[];
  name?: string;
  message?: string;
  status?: string;
  modelCalls?: number;
  turns?: unknown[];
  busy?: number;
}

/** Starts `__fixtures__/chat-turn.mjs` in a new Node process running the chat's TypeScript source through tsx. */
function child(mode: "slow" | "contend" | "race", dir: string, sessionId: string, ...extra: string[]) {
  const { child: proc, exited, next, send } = spawnLineChild(fixture, [dir, sessionId, mode, ...extra]);
  return {
    proc,
    exited,
    /** The next line the child prints, parsed. */
    async next(): Promise<ChildLine> {
      return JSON.parse(await next()) as ChildLine;
    },
    send,
  };
}

/** The journal file as written: every line must parse, and `seq` must run 1, 2, 3... */
function journalOnDisk(dir: string, sessionId: string): JournalEntry[] {
  const text = readFileSync(join(dir, `${sessionId}.jsonl`), "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const entries = text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as JournalEntry);
  expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
  expect(entries[0]).toMatchObject({ type: "session", id: sessionId });
  return entries;
}

const turnIdOf = (entry: JournalEntry): string | undefined => ("turnId" in entry ? entry.turnId : undefined);

/** The (role, text) pairs of a model call's prompt, for comparing what a model was sent. */
function promptPairs(prompt: unknown): [string, string][] {
  return (prompt as { role: string; content: string | { type: string; text?: string }[] }[]).map((message) => [
    message.role,
    typeof message.content === "string" ? message.content : message.content.map((part) => part.text ?? "").join(""),
  ]);
}

async function drain(turn: Turn): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  return events;
}

describe("chat sessions across processes (fileStore)", () => {
  it("a process killed mid-turn leaves an interrupted turn; the next process takes the lease over and goes on", async () => {
    const dir = join(root, "killed");
    const first = scriptedModel([
      { text: ["Hello ", "there."], usage: { inputTokens: 7, outputTokens: 2 } },
      { text: "Second reply.", usage: { inputTokens: 15, outputTokens: 3 } },
    ]);
    const chat = createChat({ model: first, id: "helper", version: "3", store: fileStore(dir) });
    const session = await chat.createSession({ id: "s", metadata: { topic: "kill" } });
    await session.send("first input").result;
    await session.send("second input").result;
    const before = await session.turns();
    const messagesBefore = await session.messages();
    expect(before.map((t) => [t.status, t.input, t.text])).toEqual([
      ["completed", "first input", "Hello there."],
      ["completed", "second input", "Second reply."],
    ]);
    expect(before[1].metadata).toEqual({
      responder: { kind: "model", id: "helper", version: "3" },
      model: { provider: "june-test", modelId: "scripted" },
      usage: { inputTokens: 15, outputTokens: 3, totalTokens: 18 },
      finishReason: "stop",
    });

    const killed = child("slow", dir, "s");
    const streaming = await killed.next();
    expect(streaming).toMatchObject({ event: "streaming", pid: killed.proc.pid });
    const killedTurnId = streaming.turnId!;
    // The child holds the session's lease: a turn sent here meanwhile fails before anything is journaled.
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ pid: killed.proc.pid });
    const refused = session.send("sent while the child streams");
    await expect(refused.result).rejects.toMatchObject({ name: "SessionBusyError" });
    expect(refused.status).toBe("failed");
    expect(first.callCount).toBe(2);

    killed.proc.kill("SIGKILL");
    await killed.exited;
    expect(killed.proc.signalCode).toBe("SIGKILL");
    // The dead process's lease is still on disk.
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ pid: killed.proc.pid });

    // A fresh chat over the same directory.
    let lockDuringTurn: unknown;
    const next = scriptedModel(() => {
      lockDuringTurn = JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"));
      return { text: ["After ", "the crash."] };
    });
    const fresh = createChat({ model: next, id: "helper", version: "3", store: fileStore(dir) });
    const reopened = await fresh.openSession("s");
    const after = await reopened.turns();
    expect(after).toHaveLength(3);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]).toMatchObject({ id: killedTurnId, input: "the turn that gets killed", status: "interrupted", steers: [] });
    expect(after[2].text).toBeUndefined();
    expect(after[2].error).toBeUndefined();
    expect(await reopened.messages()).toEqual(messagesBefore);
    expect(JSON.stringify(await reopened.messages())).not.toContain("the turn that gets killed");

    const turn = reopened.send("after the crash");
    const deltas = (await drain(turn)).flatMap((e) => (e.type === "text-delta" ? [e.text] : []));
    const result = await turn.result;
    expect(result.text).toBe("After the crash.");
    expect(deltas.join("")).toBe("After the crash.");
    expect(turn.status).toBe("completed");
    // Its context: the two earlier turns, not the interrupted one.
    expect(promptPairs(next.doStreamCalls[0].prompt)).toEqual([
      ["user", "first input"],
      ["assistant", "Hello there."],
      ["user", "second input"],
      ["assistant", "Second reply."],
      ["user", "after the crash"],
    ]);
    // The lease was taken over (this process held it while the model answered) and released at the turn's end.
    expect(lockDuringTurn).toMatchObject({ pid: process.pid });
    expect(existsSync(join(dir, "s.lock"))).toBe(false);

    const entries = journalOnDisk(dir, "s");
    const ids = new Set(entries.map(turnIdOf));
    expect(ids.has(refused.id)).toBe(false);
    expect(entries.filter((e) => turnIdOf(e) === killedTurnId).map((e) => e.type)).toEqual(["turn-start"]);
    const start = entries.find((e) => e.type === "turn-start" && e.turnId === turn.id);
    expect(start).toMatchObject({ type: "turn-start", context: { builder: "fullContext" } });
    const history = await reopened.turns();
    expect(contextTurnIds((start as Extract<JournalEntry, { type: "turn-start" }>).context, history)).toEqual(before.map((t) => t.id));
    expect(history.find((t) => t.id === turn.id)?.context).toEqual((start as Extract<JournalEntry, { type: "turn-start" }>).context);
    expect(entries.at(-1)).toMatchObject({ type: "turn-end", turnId: turn.id, status: "completed", text: "After the crash." });
    expect((await reopened.turns()).map((t) => t.status)).toEqual(["completed", "completed", "interrupted", "completed"]);
    // The first chat, whose session object is older than all this, catches up too.
    expect((await session.turns()).map((t) => t.status)).toEqual(["completed", "completed", "interrupted", "completed"]);
  }, 60_000);

  it("two processes send to one session at once: one completes, the other fails with SessionBusyError, nothing interleaves", async () => {
    const dir = join(root, "contend");
    const model = scriptedModel(["Earlier reply.", "Parent again."]);
    const chat = createChat({ model, store: fileStore(dir) });
    const session = await chat.createSession({ id: "shared" });
    await session.send("earlier input").result;
    const seqBefore = journalOnDisk(dir, "shared").length;

    const a = child("contend", dir, "shared");
    const b = child("contend", dir, "shared");
    expect((await a.next()).event).toBe("ready");
    expect((await b.next()).event).toBe("ready");
    a.send("go");
    b.send("go");
    // The winner's model waits for "finish", so it holds the lease while the other one tries.
    const [fromA, fromB] = await Promise.all([a.next(), b.next()]);
    expect([fromA.event, fromB.event].sort()).toEqual(["failed", "model-called"]);
    const [winner, loserLine] = fromA.event === "model-called" ? [a, fromB] : [b, fromA];
    const winnerTurnId = (fromA.event === "model-called" ? fromA : fromB).turnId!;

    expect(loserLine).toMatchObject({ name: "SessionBusyError", status: "failed", modelCalls: 0 });
    expect(loserLine.message).toContain("shared");
    expect(loserLine.turns).not.toContain(loserLine.turnId);

    winner.send("finish");
    const done = await winner.next();
    expect(done).toMatchObject({ event: "completed", turnId: winnerTurnId, status: "completed", modelCalls: 1 });
    expect(done.deltas!.join("")).toBe(done.text);
    expect(done.text).toBe(`reply from ${winner.proc.pid}`);
    await Promise.all([a.exited, b.exited]);

    const entries = journalOnDisk(dir, "shared");
    const fromRun = entries.slice(seqBefore);
    expect(fromRun.map((e) => [e.type, turnIdOf(e)])).toEqual([
      ["turn-start", winnerTurnId],
      ["turn-end", winnerTurnId],
    ]);
    expect(readFileSync(join(dir, "shared.jsonl"), "utf8")).not.toContain(loserLine.turnId!);
    expect(existsSync(join(dir, "shared.lock"))).toBe(false);

    // This process's session object saw none of it; its next turn still gets the winner's turn as context.
    expect((await session.send("parent again").result).text).toBe("Parent again.");
    expect(promptPairs(model.doStreamCalls[1].prompt)).toEqual([
      ["user", "earlier input"],
      ["assistant", "Earlier reply."],
      ["user", `input from ${winner.proc.pid}`],
      ["assistant", done.text],
      ["user", "parent again"],
    ]);
    const turns = await session.turns();
    expect(turns.map((t) => [t.status, t.text])).toEqual([
      ["completed", "Earlier reply."],
      ["completed", done.text],
      ["completed", "Parent again."],
    ]);
    journalOnDisk(dir, "shared");
  }, 60_000);

  it("two processes racing turn after turn: every turn runs alone and sees every turn before it", async () => {
    const dir = join(root, "race");
    const chat = createChat({ model: scriptedModel([]), store: fileStore(dir) });
    await chat.createSession({ id: "race" });
    const perChild = 5;
    const racers = [child("race", dir, "race", String(perChild)), child("race", dir, "race", String(perChild))];
    for (const racer of racers) expect((await racer.next()).event).toBe("ready");
    for (const racer of racers) racer.send("go");
    const reports = await Promise.all(racers.map((racer) => racer.next()));
    await Promise.all(racers.map((racer) => racer.exited));
    const sent = new Map<string, { input: string; prompt: string[] }>();
    for (const report of reports) {
      expect(report.event).toBe("done");
      for (const turn of report.turns as { turnId: string; input: string; prompt: string[] }[]) sent.set(turn.turnId, turn);
    }
    expect(sent.size).toBe(2 * perChild);

    // No interleaving: each turn's start is followed by its own end, and nothing from a refused turn.
    const entries = journalOnDisk(dir, "race").slice(1);
    expect(entries).toHaveLength(4 * perChild);
    const history = await (await chat.openSession("race")).turns();
    const inputs: string[] = [];
    for (let i = 0; i < entries.length; i += 2) {
      const [start, end] = [entries[i], entries[i + 1]];
      expect(start.type).toBe("turn-start");
      expect(end).toMatchObject({ type: "turn-end", turnId: turnIdOf(start), status: "completed" });
      const turn = sent.get(turnIdOf(start)!)!;
      expect(turn.input).toBe((start as Extract<JournalEntry, { type: "turn-start" }>).input);
      // Its context was every turn before it, whichever process ran them, and that is what its model got.
      const context = contextTurnIds((start as Extract<JournalEntry, { type: "turn-start" }>).context, history);
      expect(context).toEqual(history.slice(0, i / 2).map((t) => t.id));
      expect(turn.prompt).toEqual([...inputs, turn.input]);
      inputs.push(turn.input);
    }
    expect(history.every((t) => t.status === "completed")).toBe(true);
    expect(existsSync(join(dir, "race.lock"))).toBe(false);
  }, 90_000);
});

describe("leases left behind", () => {
  it("a lease an earlier process with this very pid left (a restarted container's pid 1) is taken over", async () => {
    const dir = join(root, "same-pid");
    const model = scriptedModel(["Back."]);
    const chat = createChat({ model, store: fileStore(dir) });
    const session = await chat.createSession({ id: "s" });
    const lockPath = join(dir, "s.lock");
    const lock = (token: string, acquiredAt: number) =>
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), token, acquiredAt: new Date(acquiredAt).toISOString() }));

    // Our pid, taken since this process started, by no store of this thread: another thread's, so busy.
    lock("another-thread", Date.now());
    const refused = session.send("refused");
    await expect(refused.result).rejects.toMatchObject({ name: "SessionBusyError" });
    expect(model.callCount).toBe(0);

    // Our pid, taken before this process started: an earlier process's, whose pid this one got.
    lock("previous-life", Date.now() - process.uptime() * 1000 - 60_000);
    expect((await session.send("after the restart").result).text).toBe("Back.");
    expect(existsSync(lockPath)).toBe(false);
    expect((await session.turns()).map((t) => [t.input, t.status])).toEqual([["after the restart", "completed"]]);
  });
});

describe("journal hygiene on disk", () => {
  it("keeps instructions, headers, keys, tool inputs and outputs and provider error details out of every file", async () => {
    const dir = join(root, "hygiene");
    const store = fileStore(dir);
    const INSTRUCTIONS = "SECRET-INSTRUCTIONS-123";
    const HEADER_KEY = "sk-live-abcdefghijklmnopqrstuvwxyz0123";
    const TOOL_KEY = "sk-proj-XYZabcdefghijklmnopqrstuvw4567";
    const ERROR_KEY = "sk-live-ERRkeyabcdefghijklmnopqrstu890";
    const STREAM_KEY = "sk-ant-STREAMkeyabcdefghijklmnopq1234";
    const headers = { authorization: `Bearer ${HEADER_KEY}` };

    // A model turn with instructions and an auth header.
    const model = scriptedModel(["Plain reply."]);
    const chat = createChat({ responder: modelResponder({ model, instructions: INSTRUCTIONS, headers }), store });
    const session = await chat.createSession({ id: "hygiene" });
    expect((await session.send("hello").result).text).toBe("Plain reply.");
    // They really were sent.
    expect(model.doStreamCalls[0].headers).toMatchObject(headers);
    expect(JSON.stringify(model.doStreamCalls[0].prompt)).toContain(INSTRUCTIONS);

    // An agent turn whose tool gets a key in its input and answers with a marker.
    const toolInputs: unknown[] = [];
    const lookup = tool({
      description: "Looks something up",
      inputSchema: jsonSchema<{ apiKey: string; note: string }>({
        type: "object",
        properties: { apiKey: { type: "string" }, note: { type: "string" } },
        required: ["apiKey", "note"],
      }),
      execute: async (input) => {
        toolInputs.push(input);
        return "TOOL-OUTPUT-MARK";
      },
    });
    const agentModel = scriptedModel([
      { toolCalls: [{ toolName: "lookup", input: { apiKey: TOOL_KEY, note: "TOOL-INPUT-MARK" } }] },
      { text: "Looked it up." },
    ]);
    const agentChat = createChat({
      responder: agentResponder({
        id: "looker",
        version: "1",
        render: ({ messages, input }) => (
          <Agent model={agentModel} instructions={INSTRUCTIONS}>
            <Tool name="lookup" value={lookup} />
            <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
      }),
      store,
    });
    const agentSession = await agentChat.openSession("hygiene");
    const agentResult = await agentSession.send("look it up").result;
    expect(agentResult.text).toBe("Looked it up.");
    expect(toolInputs).toEqual([{ apiKey: TOOL_KEY, note: "TOOL-INPUT-MARK" }]);
    // In memory, the run has them all.
    const trace = JSON.stringify(agentResult.run!.trace);
    expect(trace).toContain("TOOL-INPUT-MARK");
    expect(trace).toContain("TOOL-OUTPUT-MARK");

    // A provider error that quotes the key, with the request and response bodies attached.
    const failing = scriptedModel([
      {
        error: new APICallError({
          message: `Incorrect API key provided: ${ERROR_KEY}`,
          url: "https://api.example.test/v1/responses",
          requestBodyValues: { instructions: INSTRUCTIONS },
          statusCode: 401,
          responseHeaders: { "set-cookie": `session=${ERROR_KEY}` },
          responseBody: JSON.stringify({ error: { message: `bad key ${ERROR_KEY}` } }),
          isRetryable: false,
        }),
        errorAt: "start",
      },
      { text: ["Half a repl"], error: new Error(`stream failed; Authorization: Bearer ${STREAM_KEY}`) },
    ]);
    const failingChat = createChat({
      responder: modelResponder({ model: failing, instructions: INSTRUCTIONS, headers, maxRetries: 0 }),
      store,
    });
    const failingSession = await failingChat.openSession("hygiene");
    const rejected = failingSession.send("this one fails");
    await expect(rejected.result).rejects.toMatchObject({ name: "AI_APICallError" });
    await expect(failingSession.send("this one fails mid-stream").result).rejects.toThrow("stream failed");

    await chat.listSessions(); // writes the directory's index too
    const records = await session.turns();
    expect(records.map((t) => t.status)).toEqual(["completed", "completed", "failed", "failed"]);
    expect(records[2].error?.name).toBe("AI_APICallError");
    expect(records[2].error?.message).toContain("Incorrect API key provided");
    expect(records[3].error?.message).toContain("stream failed");

    const files = readdirSync(dir);
    expect(files).toContain("hygiene.jsonl");
    const onDisk = files.map((name) => readFileSync(join(dir, name), "utf8")).join("\n");
    expect(onDisk).toContain("Looked it up.");
    for (const secret of [INSTRUCTIONS, HEADER_KEY, TOOL_KEY, ERROR_KEY, STREAM_KEY, "TOOL-INPUT-MARK", "TOOL-OUTPUT-MARK", "api.example.test"]) {
      expect(onDisk, secret).not.toContain(secret);
    }
    expect(onDisk).not.toMatch(/sk-[A-Za-z0-9]/);
    // A credential in an error message is masked where it sat; the rest of the message is kept.
    expect(records[2].error?.message).toBe("Incorrect API key provided: [redacted]");
  });
});

describe("bad input writes nothing", () => {
  const listing = (path: string) => (existsSync(path) ? readdirSync(path).sort() : []);

  it("refuses bad session ids with InvalidSessionIdError, touching no file inside or outside the directory", async () => {
    const base = join(root, "bad-ids");
    const dir = join(base, "store", "chat");
    mkdirSync(base, { recursive: true });
    const chat = createChat({ model: scriptedModel([]), store: fileStore(dir) });
    await chat.createSession({ id: "good" });
    const journal = readFileSync(join(dir, "good.jsonl"));
    const before = { base: listing(base), store: listing(join(base, "store")), dir: listing(dir) };

    const bad: unknown[] = ["../x", "a/b", "", "x".repeat(129), "../../escape", "..", ".", "a.b", "a b", "a\0b", "é", 42, null, {}, ["good"], true];
    for (const id of bad) {
      const label = JSON.stringify(id) ?? String(id);
      await expect(chat.createSession({ id: id as string }), label).rejects.toBeInstanceOf(InvalidSessionIdError);
      await expect(chat.openSession(id as string), label).rejects.toBeInstanceOf(InvalidSessionIdError);
      await expect(chat.deleteSession(id as string), label).rejects.toBeInstanceOf(InvalidSessionIdError);
    }
    // A valid id with no session: SessionNotFoundError, and nothing created either.
    await expect(chat.openSession("missing")).rejects.toMatchObject({ name: "SessionNotFoundError" });
    expect(await chat.deleteSession("missing")).toBe(false);
    expect({ base: listing(base), store: listing(join(base, "store")), dir: listing(dir) }).toEqual(before);
    expect(readFileSync(join(dir, "good.jsonl")).equals(journal)).toBe(true);
    expect((await chat.listSessions()).map((s) => s.id)).toEqual(["good"]);

    // The longest valid id works.
    const longest = "y".repeat(128);
    expect((await chat.createSession({ id: longest })).id).toBe(longest);
  });

  it("refuses non-string, empty and oversized input with a clear error; the journal stays byte-identical", async () => {
    const dir = join(root, "bad-input");
    const model = scriptedModel(["Fine."]);
    const chat = createChat({ model, store: fileStore(dir), maxInputChars: 50 });
    const session = await chat.createSession({ id: "s" });
    const path = join(dir, "s.jsonl");
    const journal = readFileSync(path);
    const files = listing(dir);

    const cases: [unknown, new (...args: never[]) => Error, RegExp][] = [
      [42, TypeError, /input must be a string or \{ text, files \}, got number/],
      [undefined, TypeError, /input must be a string or \{ text, files \}, got undefined/],
      [null, TypeError, /input must be a string or \{ text, files \}, got null/],
      [{ text: 42 }, TypeError, /input.text must be a string, got number/],
      [{ text: "hi", files: "x" }, TypeError, /input.files must be a list of files/],
      [["hi"], TypeError, /input must be a string or \{ text, files \}, got an array/],
      ["", TypeError, /input must not be empty/],
      ["x".repeat(51), InputTooLargeError, /51 characters.*at most 50/],
    ];
    for (const [input, type, message] of cases) {
      let thrown: unknown;
      try {
        session.send(input as string);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(input)).toBeInstanceOf(type);
      expect((thrown as Error).message).toMatch(message);
      expect(session.currentTurn).toBeUndefined();
    }
    expect(readFileSync(path).equals(journal)).toBe(true);
    expect(listing(dir)).toEqual(files);
    expect(model.callCount).toBe(0);
    expect(await session.turns()).toEqual([]);

    // The session is fine: exactly the limit is taken.
    const turn = session.send("z".repeat(50));
    expect((await turn.result).text).toBe("Fine.");
    expect(journalOnDisk(dir, "s").map((e) => e.type)).toEqual(["session", "turn-start", "turn-end"]);
  });
});

describe("responders that fail", () => {
  class ProviderDown extends Error {
    override name = "ProviderDown";
  }

  /** A responder whose behaviour the input picks; it records the context every call saw. */
  function failingResponder(seen: { input: string; messages: RespondOptions["messages"] }[]): Responder {
    return {
      kind: "custom",
      id: "failing",
      respond({ input, messages }) {
        seen.push({ input, messages });
        const deltas = async function* (parts: string[], then?: Error): AsyncGenerator<TurnEvent> {
          for (const text of parts) {
            await new Promise((resolve) => setImmediate(resolve));
            yield { type: "text-delta", text };
          }
          if (then) throw then;
        };
        if (input === "throw") throw new ProviderDown("respond() blew up");
        if (input === "reject") {
          return { events: deltas(["par", "tial"]), result: Promise.reject(new RangeError("result rejected")) };
        }
        if (input === "events-throw") {
          return {
            events: deltas(["one ", "two "], new TypeError("events broke mid-way")),
            result: new Promise((resolve) => setTimeout(() => resolve({ text: "one two three" }), 50)),
          };
        }
        if (input === "sync-events") {
          // A plain array is not an async iterable: a contract mistake the turn names.
          // Its result rejects later, unawaited: that must not surface as an unhandled rejection.
          const result = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("late")), 5));
          return { events: [{ type: "text-delta", text: "x" }] as unknown as AsyncIterable<TurnEvent>, result };
        }
        const text = `reply to ${input}`;
        return { events: deltas(text.split(/(?= )/)), result: Promise.resolve({ text }) };
      },
    };
  }

  it("a throwing respond(), a rejected result, a throwing events stream and a model erroring mid-stream each fail only their turn", async () => {
    const dir = join(root, "failing");
    const store = fileStore(dir);
    const seen: { input: string; messages: RespondOptions["messages"] }[] = [];
    const chat = createChat({ responder: failingResponder(seen), store });
    const session = await chat.createSession({ id: "f" });
    const model = scriptedModel([
      { text: ["Model ", "starts ", "then"], delay: 1, error: new ProviderDown("connection reset mid-stream") },
      { text: ["Model ", "is back."] },
    ]);
    const modelChat = createChat({ model, store });
    const modelSession = await modelChat.openSession("f");

    const completed: string[] = [];
    async function expectCompleted(input: string) {
      const turn = session.send(input);
      const events = await drain(turn);
      const result = await turn.result;
      expect(result.text).toBe(`reply to ${input}`);
      expect(events.map((e) => (e.type === "text-delta" ? e.text : "")).join("")).toBe(result.text);
      completed.push(input);
      // The context it saw: every completed turn, no failed one.
      expect(seen.at(-1)!.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(completed.slice(0, -1));
    }
    async function expectFailed(turn: Turn, name: string, message: string) {
      const events = await drain(turn); // ends normally after the last event
      await expect(turn.result).rejects.toMatchObject({ name, message });
      expect(turn.status).toBe("failed");
      const earlier = completed.length;
      const records = await session.turns();
      const record = records.find((t) => t.id === turn.id)!;
      expect(record).toMatchObject({ status: "failed", error: { name, message } });
      expect(record.text).toBeUndefined();
      expect(records.filter((t) => t.status === "completed").map((t) => t.input)).toEqual(completed.slice(0, earlier));
      return events;
    }

    await expectCompleted("first");
    await expectFailed(session.send("throw"), "ProviderDown", "respond() blew up");
    await expectCompleted("second");
    await expectFailed(session.send("reject"), "RangeError", "result rejected");
    await expectCompleted("third");
    const partial = await expectFailed(session.send("events-throw"), "TypeError", "events broke mid-way");
    expect(partial.length).toBeLessThanOrEqual(2);
    await expectCompleted("fourth");
    const streamed = await expectFailed(modelSession.send("model fails"), "ProviderDown", "connection reset mid-stream");
    expect(streamed.map((e) => (e.type === "text-delta" ? e.text : "")).join("")).toBe("Model starts then");
    await expectCompleted("fifth");
    await expectFailed(session.send("sync-events"), "ResponderContractError", "The execution's `events` must be an async iterable of turn events, or left out");
    // The model chat goes on too, with the completed turns as its context.
    expect((await modelSession.send("model again").result).text).toBe("Model is back.");
    expect(promptPairs(model.doStreamCalls[1].prompt).filter(([role]) => role === "user").map(([, text]) => text)).toEqual([
      ...completed,
      "model again",
    ]);

    // On disk: one start and one end per turn, failures with their name and message only.
    const entries = journalOnDisk(dir, "f");
    const starts = entries.filter((e) => e.type === "turn-start");
    const ends = entries.filter((e): e is Extract<JournalEntry, { type: "turn-end" }> => e.type === "turn-end");
    expect(starts.map(turnIdOf)).toEqual(ends.map(turnIdOf));
    expect(ends.map((e) => [e.status, e.error?.name ?? null])).toEqual([
      ["completed", null],
      ["failed", "ProviderDown"],
      ["completed", null],
      ["failed", "RangeError"],
      ["completed", null],
      ["failed", "TypeError"],
      ["completed", null],
      ["failed", "ProviderDown"],
      ["completed", null],
      ["failed", "ResponderContractError"],
      ["completed", null],
    ]);
    for (const end of ends.filter((e) => e.status === "failed")) {
      expect(Object.keys(end.error!).sort()).toEqual(["message", "name"]);
      expect(end.text).toBeUndefined();
    }
    expect(existsSync(join(dir, "f.lock"))).toBe(false);
  });
});
