import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { fileStore, memoryStore } from "../stores/index.js";
import { openJournal, canOpenJournal, sharedTurnOf } from "../stores/journal-open.js";
import type { ChatStore, NewJournalEntry } from "../stores/types.js";
import { createChat } from "./create-chat.js";
import { SessionJournal } from "./session-journal.js";
import type { Responder } from "./types.js";

/**
 * The journal keeps a turn's turn-start and turn-end in its record and rebuilds them for `entries`: what it
 * rebuilds must be the stored entries, key for key and in the same key order, whatever the journal holds.
 */
const short: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `reply to ${input}` }) }) };
const long: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `reply to ${input}: ${"lorem ipsum ".repeat(2000)}` }) }) };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function fileDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "june-session-journal-"));
  dirs.push(dir);
  return dir;
}

/** A journal with every kind of turn history: branches, feedback, a cancel, a turn ended twice, no parents named. */
async function busyJournal(store: ChatStore, responder: Responder): Promise<void> {
  const chat = createChat({ responder, store });
  const session = await chat.createSession({ id: "s" });
  for (let i = 0; i < 4; i++) await session.send(`question ${i}`).result;
  await session.regenerate().result;
  const turns = await session.turns();
  await session.feedback(turns[1]!.id, { score: 1, comment: "good", tags: ["x"] });
  await session.checkout(turns[2]!.id);
  await session.send("on the old branch").result;
  let seq = (await store.read("s")).at(-1)!.seq;
  const append = async (entries: NewJournalEntry[]) => {
    await store.append("s", entries, { expectedSeq: seq });
    seq += entries.length;
  };
  // An older journal's turn-starts name no parent; a turn ended twice; an interrupted turn canceled later;
  // a turn-end with fields of its own.
  await append([{ type: "turn-start", turnId: "old-1", input: "no parent", context: { builder: "fullContext", turnIds: [] } }]);
  await append([{ type: "turn-end", turnId: "old-1", status: "completed", text: "first" }]);
  await append([{ type: "turn-end", turnId: "old-1", status: "failed", error: { name: "E", message: "again" } }]);
  await append([{ type: "turn-start", turnId: "old-2", input: "left", context: { builder: "recentTurns", turnIds: ["old-1"] } }]);
  await append([{ type: "steer", turnId: "old-2", input: "faster", atChar: 3 }]);
  await append([{ type: "turn-start", turnId: "old-3", input: "after", parentTurnId: "old-2", context: { builder: "fullContext", turnIds: [] } }]);
  await append([{ type: "turn-end", turnId: "old-3", status: "completed", text: "done", metadata: { responder: { kind: "model" } }, extra: 1 } as NewJournalEntry]);
  await append([{ type: "turn-end", turnId: "old-2", status: "canceled" }]);
}

async function expectEntriesAsStored(store: ChatStore, journal: SessionJournal): Promise<void> {
  const stored = await store.read("s");
  expect(journal.entries).toStrictEqual(stored);
  expect(journal.entries.map((entry) => JSON.stringify(entry))).toEqual(stored.map((entry) => JSON.stringify(entry)));
}

describe("SessionJournal.entries", () => {
  for (const [name, make] of [
    ["memoryStore", async () => memoryStore()],
    ["fileStore", async () => fileStore(await fileDir())],
  ] as const) {
    test(`${name}: rebuilt as stored, when opened and as a live session appends`, async () => {
      const store = await make();
      await busyJournal(store, short);
      const opened = new SessionJournal(store, "s", { entries: await store.read("s"), checked: true });
      await expectEntriesAsStored(store, opened);
      // Rebuilt, not kept: most turn-starts and turn-ends are other objects than the stored ones.
      const stored = await store.read("s");
      const rebuilt = opened.entries.filter((entry, i) => entry !== stored[i] && entry.type.startsWith("turn-"));
      if (name === "memoryStore") expect(rebuilt.length).toBeGreaterThan(10);

      // Made before the appends: kept up to date by them.
      const live = new SessionJournal(store, "s", { entries: await store.read("s"), checked: true });
      const before = live.entries;
      const other = new SessionJournal(store, "s", { entries: await store.read("s"), checked: true });
      await other.append([{ type: "turn-start", turnId: "new-1", input: "new", parentTurnId: "old-3", context: { builder: "fullContext", turnIds: [] } }]);
      await other.append([{ type: "turn-end", turnId: "new-1", status: "completed", text: "new reply" }]);
      await other.append([{ type: "turn-end", turnId: "new-1", status: "completed", text: "ended twice" }]);
      await live.catchUp();
      expect(live.entries).toBe(before);
      await expectEntriesAsStored(store, live);
      await expectEntriesAsStored(store, other);
      expect(other.record("new-1")).toMatchObject({ status: "completed", text: "ended twice" });
    });
  }

  test("fileStore: a long journal opened lazily rebuilds the entries its lines held", async () => {
    const dir = await fileDir();
    const store = fileStore(dir);
    await busyJournal(store, long);
    if (!canOpenJournal(store)) throw new Error("fileStore opens journals lazily");
    const opened = await store[openJournal]("s");
    expect(opened.entries.some((entry) => !("at" in entry))).toBe(true);
    const lazily = new SessionJournal(store, "s", { ...opened, checked: true });
    // A turn journaled before the lines are parsed.
    const other = new SessionJournal(store, "s", { entries: await store.read("s"), checked: true });
    await other.append([{ type: "turn-end", turnId: "old-3", status: "failed", error: { name: "E", message: "late" } }]);
    await lazily.catchUp();
    await expectEntriesAsStored(store, lazily);
    expect(lazily.records).toEqual(other.records);
  });

  test("the records are frozen (through, with memoryStore's frozen entries), and a change to a turn replaces its record", async () => {
    const store = memoryStore();
    await busyJournal(store, short);
    const journal = new SessionJournal(store, "s", { entries: await store.read("s"), checked: true });
    const record = journal.record("old-3")!;
    expect(Object.isFrozen(record) && Object.isFrozen(record.metadata) && Object.isFrozen(record.context)).toBe(true);
    await journal.append([{ type: "feedback", turnId: "old-3", score: 1 }]);
    expect(record.feedback).toBeUndefined();
    expect(journal.record("old-3")).toEqual({ ...record, feedback: { score: 1 } });
    expect(journal.branch.at(-1)).toBe(journal.record("old-3"));
  });

  test("memoryStore: a session holds the store's own record of each turn its own record equals", async () => {
    const store = memoryStore();
    await busyJournal(store, short);
    const chat = createChat({ responder: short, store });
    const session = await chat.openSession("s");
    const turns = await session.turns();
    const shared = turns.filter((turn) => sharedTurnOf(store, "s", turn.id) === turn);
    // Not the turns a later entry changed (feedback, a steer, a second end): the store's record is its first end's.
    expect(shared.length).toBeGreaterThan(2);
    expect(turns.filter((turn) => turn.feedback !== undefined && sharedTurnOf(store, "s", turn.id) === turn)).toEqual([]);
    // A turn run now: the session's record is the store's too.
    const { id } = await session.send("one more").result.then(() => session.turns()).then((all) => all.at(-1)!);
    expect(sharedTurnOf(store, "s", id)).toBe((await session.turns()).at(-1));
  });
});

