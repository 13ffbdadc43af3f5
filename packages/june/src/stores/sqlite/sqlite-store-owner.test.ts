import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { LIST_SQL, SCHEMA_VERSION } from "./sqlite-schema.js";
import { sqliteStore } from "./sqlite-store.js";

const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const root = mkdtempSync(join(tmpdir(), "june-sqlite-owner-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(root, `db-${n++}.db`);

/** What a database written before sessions had owners looks like: no `owner` column, no owner index, version 1. */
function downgradeToVersion1(path: string): void {
  const db = new Database(path);
  try {
    db.exec("DROP INDEX june_sessions_by_owner; ALTER TABLE june_sessions DROP COLUMN owner;");
    db.pragma("user_version = 1");
  } finally {
    db.close();
  }
}

describe("sqliteStore owners", () => {
  it("lists one owner's sessions through the owner index, never scanning the others", async () => {
    const path = freshPath();
    const store = sqliteStore(path);
    await store.createSession({ id: "a", owner: "alice" });
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      for (const sql of [LIST_SQL.owner, LIST_SQL.ownerBefore]) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ owner: "alice", limit: 20, before: Date.now() })
          .map((row) => (row as { detail: string }).detail)
          .join("; ");
        expect(plan).toContain("june_sessions_by_owner");
        expect(plan).not.toMatch(/SCAN june_sessions|TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });

  it("migrates a version 1 database: the owner column, filled from each session entry, and its index", async () => {
    const path = freshPath();
    const before = sqliteStore(path);
    await before.createSession({ id: "old", metadata: { n: 1 } });
    await before.createSession({ id: "owned", owner: "alice" });
    await before.close();
    downgradeToVersion1(path);

    const store = sqliteStore(path);
    try {
      expect((await store.getSession("owned"))?.owner).toBe("alice");
      expect((await store.getSession("old"))?.owner).toBeUndefined();
      await store.createSession({ id: "new", owner: "alice" });
      expect((await store.listSessions({ owner: "alice" })).map((s) => s.id)).toEqual(["new", "owned"]);
      expect((await store.listSessions()).map((s) => s.id).sort()).toEqual(["new", "old", "owned"]);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'june_sessions_by_owner'").pluck().get()).toBe(
        "june_sessions_by_owner",
      );
    } finally {
      db.close();
    }
    // Opened again: nothing left to migrate.
    const again = sqliteStore(path);
    expect((await again.getSession("owned"))?.owner).toBe("alice");
    await again.close();
  });
});
