import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createChat } from "../chat/create-chat.js";
import { JournalCorruptError } from "./errors.js";
import { storeChecksReads } from "./journal-open.js";
import { JournalReadCheck, entryProblem, linkProblem } from "./journal-shape.js";
import { sqliteStore } from "./sqlite/sqlite-store.js";
import { seededRandom } from "../testing/__fixtures__/seeded-random.js";
import type { JournalEntry } from "./types.js";

const at = "2024-01-01T00:00:00.000Z";
const start = { type: "turn-start", at, seq: 2, turnId: "a", input: "hi", context: { builder: "full", turnIds: [] } };

describe("entryProblem", () => {
  it("accepts every well-formed entry type", () => {
    const good: unknown[] = [
      { type: "session", at, seq: 1, id: "s", metadata: { x: 1 } },
      start,
      { ...start, parentTurnId: "p", context: { builder: "recent", turnIds: ["p"], completedThrough: "p", summaryId: "m" } },
      { type: "steer", at, seq: 3, turnId: "a", input: "shorter", atChar: 0 },
      { type: "turn-end", at, seq: 4, turnId: "a", status: "completed", text: "t", metadata: { responder: { kind: "model" } } },
      { type: "turn-end", at, seq: 4, turnId: "a", status: "failed", error: { name: "E", message: "m" } },
      { type: "approval", at, seq: 5, turnId: "a", requestId: "r", toolName: "deploy", approved: true, remember: "session" },
      { type: "approval", at, seq: 5, toolName: "deploy", approved: false, remember: "session" },
      { type: "feedback", at, seq: 6, turnId: "a", score: 1, comment: "c", tags: ["x"] },
      { type: "summary", at, seq: 7, throughTurnId: "a", text: "s" },
      { type: "checkout", at, seq: 8 },
      { type: "checkout", at, seq: 8, turnId: "a", future: "a field a later version adds" },
    ];
    for (const entry of good) expect(entryProblem(entry), JSON.stringify(entry)).toBeUndefined();
  });

  it("names what is wrong with a damaged entry", () => {
    const cases: [unknown, RegExp][] = [
      [null, /not a JSON object/],
      [[start], /not a JSON object/],
      [{ ...start, type: "turn-stamt" }, /unknown entry type "turn-stamt"/],
      [{ ...start, at: "yesterday" }, /`at` is not an ISO time/],
      [{ ...start, seq: 2.5 }, /`seq`/],
      [{ ...start, turnId: undefined }, /turn-start: needs a `turnId`/],
      [{ ...start, turnId: "" }, /needs a `turnId`/],
      [{ ...start, input: 3 }, /`input`/],
      [{ ...start, parentTurnId: null }, /`parentTurnId`/],
      [{ ...start, context: undefined }, /`context`/],
      [{ ...start, context: { builder: "full", turnIds: "a" } }, /context.turnIds/],
      [{ type: "turn-end", at, seq: 3, turnId: "a", status: "complet3d" }, /unknown status "complet3d"/],
      [{ type: "turn-end", at, seq: 3, turnId: "a", status: "failed", error: "boom" }, /`error`/],
      [{ type: "steer", at, seq: 3, turnId: "a", input: "x", atChar: -1 }, /atChar/],
      [{ type: "feedback", at, seq: 3, turnId: "a", score: "5" }, /score/],
      [{ type: "approval", at, seq: 3, turnId: "a", toolName: "t", approved: true }, /both `turnId` and `requestId`/],
      [{ type: "approval", at, seq: 3, toolName: "t", approved: true }, /revocation/],
      [{ type: "summary", at, seq: 3, text: "s" }, /throughTurnId/],
      [{ type: "session", at, seq: 1 }, /session `id`/],
    ];
    for (const [entry, expected] of cases) expect(entryProblem(entry), JSON.stringify(entry)).toMatch(expected);
  });

  it("damaged turn-starts and turn-ends in June's common form are named (every change refused as the rules say, whichever path checks it; seeded)", () => {
    const random = seededRandom(2929);
    const bases: Record<string, unknown>[] = [
      { type: "turn-start", at, seq: 4, turnId: "t2", input: "hi", parentTurnId: "t1", context: { builder: "fullContext", turnIds: ["t1"], completedThrough: "t1", summaryId: "s" } },
      { type: "turn-start", at, seq: 2, turnId: "t1", input: "", context: { builder: "recentTurns", turnIds: [] } },
      { type: "turn-end", at, seq: 3, turnId: "t1", status: "completed", text: "yes", metadata: { responder: { kind: "model" } } },
      { type: "turn-end", at, seq: 3, turnId: "t1", status: "failed", error: { name: "E", message: "m" } },
      { type: "turn-end", at, seq: 3, turnId: "t1", status: "canceled" },
      { type: "turn-end", at, seq: 3, turnId: "t1", status: "blocked", error: { name: "GuardrailTrippedError", message: "no" } },
    ];
    const values: unknown[] = [undefined, null, "", "x", "blocked", "completed", 0, 1, 2.5, -1, true, [], ["x"], [1], {}, { responder: {} }, { responder: [] }, "2026-13-01T00:00:00.000Z"];
    for (const base of bases) expect(entryProblem(base), JSON.stringify(base)).toBeUndefined();
    for (let i = 0; i < 3000; i++) {
      const entry = structuredClone(random.pick(bases));
      const target = random.chance(0.3) && typeof entry.context === "object" ? (entry.context as Record<string, unknown>) : random.chance(0.2) && entry.metadata ? (entry.metadata as Record<string, unknown>) : entry;
      const keys = [...Object.keys(target), "error", "text", "parentTurnId", "completedThrough", "summaryId", "responder"];
      target[random.pick(keys)] = random.pick(values);
      if (random.chance(0.1) && Array.isArray(entry.context && (entry.context as { turnIds?: unknown }).turnIds)) (entry.context as { turnIds: unknown[] }).turnIds.push(random.pick(values));
      const problem = entryProblem(entry);
      expect([JSON.stringify(entry), problem === undefined]).toEqual([JSON.stringify(entry), referenceProblem(entry) === undefined]);
      if (problem !== undefined) expect(problem).toMatch(/^(turn-(start|end): |unknown entry type)/);
    }
  });
});

/** The rules of a turn-start and a turn-end as the spec gives them, spelled out independently of `entryProblem`. */
function referenceProblem(e: Record<string, unknown>): string | undefined {
  const str = (v: unknown) => typeof v === "string";
  const id = (v: unknown) => str(v) && v !== "";
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (e.type !== "turn-start" && e.type !== "turn-end") return "type";
  if (!str(e.at) || Number.isNaN(Date.parse(e.at as string))) return "at";
  if (!Number.isInteger(e.seq) || (e.seq as number) < 1) return "seq";
  if (!id(e.turnId)) return "turnId";
  if (e.type === "turn-start") {
    const c = e.context;
    if (!str(e.input) || (e.parentTurnId !== undefined && !id(e.parentTurnId)) || !obj(c)) return "start";
    if (!str(c.builder) || !Array.isArray(c.turnIds) || !c.turnIds.every(str)) return "context";
    if ((c.completedThrough !== undefined && !id(c.completedThrough)) || (c.summaryId !== undefined && !str(c.summaryId))) return "context";
    return undefined;
  }
  if (!["completed", "failed", "canceled", "blocked"].includes(e.status as string)) return "status";
  if (e.text !== undefined && !str(e.text)) return "text";
  if (e.metadata !== undefined && !(obj(e.metadata) && obj(e.metadata.responder))) return "metadata";
  if (e.error !== undefined && !(obj(e.error) && str(e.error.name) && str(e.error.message))) return "error";
  return undefined;
}

describe("linkProblem", () => {
  it("every turn an entry names must have started before it", () => {
    const known = (id: string) => id === "a";
    const entry = (fields: object) => ({ at, seq: 3, ...fields }) as JournalEntry;
    expect(linkProblem(entry({ ...start, parentTurnId: "a" }), known)).toBeUndefined();
    expect(linkProblem(entry({ ...start, parentTurnId: "b" }), known)).toMatch(/`parentTurnId` "b" names no earlier turn/);
    expect(linkProblem(entry({ type: "turn-end", turnId: "b", status: "canceled" }), known)).toMatch(/turnId/);
    expect(linkProblem(entry({ type: "steer", turnId: "b", input: "", atChar: 0 }), known)).toMatch(/turnId/);
    expect(linkProblem(entry({ type: "feedback", turnId: "b", score: 1 }), known)).toMatch(/turnId/);
    expect(linkProblem(entry({ type: "summary", throughTurnId: "b", text: "" }), known)).toMatch(/throughTurnId/);
    expect(linkProblem(entry({ type: "checkout", turnId: "b" }), known)).toMatch(/turnId/);
    expect(linkProblem(entry({ type: "checkout" }), known)).toBeUndefined();
    expect(linkProblem(entry({ type: "approval", toolName: "t", approved: false, remember: "session" }), known)).toBeUndefined();
  });

  it("JournalReadCheck checks links only on a whole journal", () => {
    const end = { type: "turn-end", at, seq: 2, turnId: "elsewhere", status: "completed" };
    const whole = new JournalReadCheck({ sessionId: "s", location: "/j/s.jsonl" });
    whole.check({ type: "session", at, seq: 1, id: "s" });
    expect(() => whole.check(end)).toThrow(/line 2 of \/j\/s.jsonl: turn-end: `turnId` "elsewhere"/);
    const tail = new JournalReadCheck({ sessionId: "s", fromSeq: 2 });
    expect(tail.check(end)).toBe(end);
    expect(() => tail.check({ ...end, seq: 4 })).toThrow(/seq 4 where 3 was expected/);
  });
});

describe("database stores check what they read", () => {
  const root = mkdtempSync(join(tmpdir(), "june-shape-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("sqliteStore: a row changed behind the store's back is a JournalCorruptError naming the database", async () => {
    const path = join(root, "chat.db");
    const store = sqliteStore(path);
    await store.createSession({ id: "s" });
    await store.append(
      "s",
      [
        { type: "turn-start", turnId: "a", input: "one", context: { builder: "full", turnIds: [] } },
        { type: "turn-end", turnId: "a", status: "completed", text: "1" },
        { type: "turn-start", turnId: "b", parentTurnId: "a", input: "two", context: { builder: "full", turnIds: [] } },
      ],
      { expectedSeq: 1 },
    );
    await store.close();
    const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    const db = new Database(path);
    db.prepare("UPDATE june_entries SET entry = replace(entry, '\"parentTurnId\":\"a\"', '\"parentTurnId\":\"x\"') WHERE seq = 4").run();
    db.close();
    const reopened = sqliteStore(path);
    try {
      const error = await reopened.read("s").catch((e: unknown) => e);
      expect(JournalCorruptError.isInstance(error)).toBe(true);
      expect((error as JournalCorruptError).line).toBe(4);
      expect((error as Error).message).toContain(`line 4 of the SQLite database ${path}: turn-start: \`parentTurnId\` "x"`);
      // A read from later on sees the entry alone: well-formed, so it is handed back (the session's fold checks links).
      expect(await reopened.read("s", { fromSeq: 4 })).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  });

  it("sqliteStore checks its reads (so a session does not again): a damaged row is an error on open and on catch-up", async () => {
    const path = join(root, "chat-catch-up.db");
    const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    const echo = { respond: ({ input }: { input: string }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };
    const first = sqliteStore(path);
    const second = sqliteStore(path);
    try {
      expect(storeChecksReads(first)).toBe(true);
      const session = await createChat({ responder: echo, store: first }).createSession({ id: "c" });
      await session.send("one").result;
      // Another writer's turn, then its turn-end damaged behind the stores' backs (no turnId: a form problem).
      await (await createChat({ responder: echo, store: second }).openSession("c")).send("two").result;
      const db = new Database(path);
      db.prepare(`UPDATE june_entries SET entry = replace(entry, '"turnId":', '"turnID":') WHERE seq = 5`).run();
      db.close();
      const caughtUp = await session.turns().catch((e: unknown) => e);
      expect(JournalCorruptError.isInstance(caughtUp)).toBe(true);
      expect((caughtUp as JournalCorruptError).line).toBe(5);
      expect((caughtUp as Error).message).toContain(`line 5 of the SQLite database ${path}: turn-end: needs a \`turnId\``);
      const opened = await createChat({ responder: echo, store: second }).openSession("c").catch((e: unknown) => e);
      expect(JournalCorruptError.isInstance(opened)).toBe(true);
      expect((opened as JournalCorruptError).line).toBe(5);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("`at`: an ISO time exactly when Date.parse reads one", () => {
  it("the common turn-start and turn-end accept an `at` iff Date.parse does, across fields at and past their bounds", () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    const ats: string[] = ["2026-12-07T10:22:20.123Z", "2026-12-07T10:22:20Z", "2026-12-07T10:22:20.123+01:00", "2026-12-07", "yesterday", "", "2026-12-07T10:22:20.1234567Z"];
    for (const month of [0, 1, 2, 12, 13]) for (const day of [0, 1, 28, 29, 30, 31, 32]) for (const hour of [0, 23, 24]) for (const minute of [59, 60]) for (const second of [0, 59, 60]) {
      for (const fraction of ["", ".5", ".123", ".1234"]) ats.push(`2026-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}Z`);
    }
    for (const at of ats) {
      const valid = !Number.isNaN(Date.parse(at));
      const start = { type: "turn-start", at, seq: 2, turnId: "t1", input: "hi", context: { builder: "fullContext", turnIds: [] } };
      const end = { type: "turn-end", at, seq: 3, turnId: "t1", status: "completed", text: "hello", metadata: { responder: { kind: "model" } } };
      expect([at, entryProblem(start) === undefined], at).toEqual([at, valid]);
      expect([at, entryProblem(end) === undefined], at).toEqual([at, valid]);
    }
  });
});
