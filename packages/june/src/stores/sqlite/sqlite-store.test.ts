import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { storeConformanceCases } from "../../testing/store-conformance.js";
import type { JournalEntry, NewJournalEntry } from "../types.js";
import { sqliteStore } from "./sqlite-store.js";
import { LIST_SQL } from "./sqlite-schema.js";

const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const root = mkdtempSync(join(tmpdir(), "june-sqlite-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(root, `db-${n++}`, "chat.db");

const turn = (turnId: string, input = `input of ${turnId}`): NewJournalEntry[] => [
  { type: "turn-start", turnId, input, context: { builder: "full", turnIds: [] } },
  { type: "turn-end", turnId, status: "completed", text: `reply to ${turnId}` },
];

describe("sqliteStore conformance (a fresh file per case)", () => {
  for (const c of storeConformanceCases(() => sqliteStore(freshPath()))) it(c.name, c.run);
});

describe("sqliteStore conformance (one shared file, no fsync)", () => {
  const shared = join(root, "shared.db");
  for (const c of storeConformanceCases(() => sqliteStore({ path: shared, fsync: false }))) it(c.name, c.run);
});

describe("sqliteStore conformance (in memory)", () => {
  for (const c of storeConformanceCases(() => sqliteStore(":memory:"))) it(c.name, c.run);
});

describe("sqliteStore", () => {
  it("keeps one database file in WAL mode, its folder created", async () => {
    const path = freshPath();
    const store = sqliteStore(path);
    try {
      await store.createSession({ id: "s" });
      await store.append("s", turn("t1"), { expectedSeq: 1, sync: true });
      expect(statSync(path).isFile()).toBe(true);
      expect(existsSync(`${path}-wal`)).toBe(true);
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
        expect(db.prepare("SELECT count(*) FROM june_entries WHERE session_id = 's'").pluck().get()).toBe(3);
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  });

  it("reads back what it wrote after a reopen, sessions and journals alike", async () => {
    const path = freshPath();
    const first = sqliteStore(path);
    await first.createSession({ id: "a", metadata: { owner: "ada" } });
    const written = await first.append("a", turn("t1", "hello there"), { expectedSeq: 1, sync: true });
    await first.createSession({ id: "b" });
    const before = { a: await first.read("a"), list: await first.listSessions() };
    await first.close();

    const again = sqliteStore({ path });
    try {
      expect(await again.read("a")).toEqual(before.a);
      expect((await again.read("a")).slice(1)).toEqual(written);
      expect(await again.listSessions()).toEqual(before.list);
      expect(await again.getSession("a")).toMatchObject({ title: "hello there", turnCount: 1, metadata: { owner: "ada" } });
      await again.append("a", turn("t2"), { expectedSeq: 3 });
      expect((await again.read("a")).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await again.close();
    }
  });

  it("entries round-trip exactly: key order, unicode, NUL and lone surrogates", async () => {
    const store = sqliteStore(freshPath());
    try {
      await store.createSession({ id: "s", metadata: { z: 1, a: { y: [1, "two", null, true], b: "ü 日本 🎉" } } });
      const odd = "nul:\u0000 lone:\ud800 pair:🎉 quote:\" back:\\ newline:\n tab:\t";
      const entries: NewJournalEntry[] = [
        { type: "turn-start", turnId: "t1", input: odd, context: { builder: "recent", turnIds: ["x", "y"], summaryId: "s1" } },
        {
          type: "turn-end",
          turnId: "t1",
          status: "completed",
          text: odd,
          metadata: { responder: { kind: "model", version: "v1" }, usage: { outputTokens: 7, inputTokens: 3 }, finishReason: "stop" },
        },
        { type: "feedback", turnId: "t1", score: -0.5, comment: "meh", tags: ["a", "b"] },
      ];
      const written = await store.append("s", entries, { expectedSeq: 1 });
      const read = (await store.read("s")).slice(1);
      expect(read).toEqual(written);
      // The same text, key for key and in the same order.
      expect(read.map((e) => JSON.stringify(e))).toEqual(written.map((e) => JSON.stringify(e)));
      expect((read[0] as { input: string }).input).toBe(odd);
      expect(Object.keys(read[1])).toEqual(["type", "at", "seq", "turnId", "status", "text", "metadata"]);
      expect(Object.keys((await store.getSession("s"))!.metadata!)).toEqual(["z", "a"]);
    } finally {
      await store.close();
    }
  });

  it("lists 10,000 sessions through its index, newest first", async () => {
    const path = freshPath();
    const store = sqliteStore({ path, fsync: false });
    try {
      const base = Date.UTC(2030, 0, 1);
      for (let i = 0; i < 10_000; i++) {
        const id = `s${i}`;
        await store.createSession({ id });
        await store.append(id, [{ ...turn("t")[0], at: new Date(base + i * 1000).toISOString() }], { expectedSeq: 1 });
      }
      const page = await store.listSessions({ limit: 20 });
      expect(page.map((s) => s.id)).toEqual(Array.from({ length: 20 }, (_, i) => `s${9999 - i}`));
      const next = await store.listSessions({ limit: 3, before: page[19].updatedAt });
      expect(next.map((s) => s.id)).toEqual(["s9979", "s9978", "s9977"]);
      const all = await store.listSessions();
      expect(all).toHaveLength(10_000);
      expect(all[9999]).toMatchObject({ id: "s0", turnCount: 1, title: "input of t" });

      // The listing walks the index: no table scan, no sort of every row.
      const db = new Database(path, { readonly: true });
      try {
        for (const sql of [LIST_SQL.all, LIST_SQL.before]) {
          const plan = db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all({ limit: 20, before: base })
            .map((row) => (row as { detail: string }).detail)
            .join("; ");
          expect(plan).toContain("june_sessions_by_update");
          expect(plan).not.toMatch(/TEMP B-TREE/);
        }
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  }, 120_000);

  it("a default lease is renewed while held, and expires once its store is gone", async () => {
    const path = freshPath();
    const holder = sqliteStore({ path, leaseTtlMs: 600 });
    const other = sqliteStore({ path, leaseTtlMs: 600 });
    try {
      await holder.createSession({ id: "s" });
      const lease = await holder.acquireTurn("s");
      const expiries = new Set<number>();
      const db = new Database(path, { readonly: true });
      try {
        for (let i = 0; i < 6; i++) {
          await sleep(250);
          await expect(other.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError", sessionId: "s" });
          expiries.add(db.prepare("SELECT expires_ms FROM june_leases").pluck().get() as number);
        }
      } finally {
        db.close();
      }
      // Held for more than twice its expiry: it was renewed.
      expect(expiries.size).toBeGreaterThan(1);
      await holder.close(); // stops renewing; the lease is left behind as a crashed holder would leave it
      await sleep(700);
      const taken = await other.acquireTurn("s");
      expect(taken.token).not.toBe(lease.token);
      await other.releaseTurn(taken);
    } finally {
      await holder.close();
      await other.close();
    }
  });

  it("a lease from another host is busy until it expires, then taken over", async () => {
    const path = freshPath();
    const store = sqliteStore(path);
    try {
      await store.createSession({ id: "s" });
      const db = new Database(path);
      const put = db.prepare(
        "INSERT OR REPLACE INTO june_leases VALUES ('s', 'theirs', 1, 'elsewhere.example', 'x', ?, ?)",
      );
      try {
        put.run(Date.now(), Date.now() + 60_000);
        await expect(store.acquireTurn("s")).rejects.toThrow(/held by process 1 on elsewhere\.example until/);
        await store.releaseTurn({ sessionId: "s", token: "not-theirs" });
        await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
        put.run(Date.now() - 120_000, Date.now() - 60_000);
        const lease = await store.acquireTurn("s");
        expect(db.prepare("SELECT token, pid FROM june_leases").get()).toEqual({ token: lease.token, pid: process.pid });
        await store.releaseTurn(lease);
        expect(db.prepare("SELECT count(*) FROM june_leases").pluck().get()).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      await store.close();
    }
  });

  it("refuses bad options and calls after close with clear errors", async () => {
    expect(() => sqliteStore("")).toThrow(/path/);
    expect(() => sqliteStore({} as never)).toThrow(/path/);
    expect(() => sqliteStore({ path: freshPath(), leaseTtlMs: 0 })).toThrow(/leaseTtlMs/);
    expect(() => sqliteStore({ path: freshPath(), busyTimeoutMs: -1 })).toThrow(/busyTimeoutMs/);
    expect(() => sqliteStore({ path: freshPath(), fsync: "yes" as never })).toThrow(/fsync/);
    const store = sqliteStore(freshPath());
    await store.close();
    await store.close();
    await expect(store.getSession("s")).rejects.toMatchObject({ name: "StoreClosedError", store: "sqliteStore" });
    await expect(store.append("s", turn("t"), { expectedSeq: 1 })).rejects.toThrow(/closed/);
  });

  it("refuses a database written by a newer schema", async () => {
    const path = freshPath();
    await sqliteStore(path).close();
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    expect(() => sqliteStore(path)).toThrow(/schema version 99/);
  });

  it("deleting a session removes its entries and lease rows", async () => {
    const path = freshPath();
    const store = sqliteStore(path);
    try {
      await store.createSession({ id: "gone" });
      await store.createSession({ id: "kept" });
      await store.append("gone", turn("t"), { expectedSeq: 1 });
      await store.acquireTurn("gone");
      expect(await store.deleteSession("gone")).toBe(true);
      const db = new Database(path, { readonly: true });
      try {
        const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table} WHERE session_id = 'gone'`).pluck().get();
        expect([count("june_entries"), count("june_leases")]).toEqual([0, 0]);
        expect(db.prepare("SELECT count(*) FROM june_entries").pluck().get()).toBe(1);
      } finally {
        db.close();
      }
      const entries: JournalEntry[] = await store.read("kept");
      expect(entries).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
