import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChat } from "../../chat/create-chat.js";
import { createChatHandler } from "../../server/create-chat-handler.js";
import { listen } from "../../server/__fixtures__/servers.js";
import { scriptedModel } from "../../testing/scripted-model.js";
import { testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("owner");
});
afterAll(async () => {
  await db?.drop();
});

describe("postgresStore owners", () => {
  it("lists one owner's sessions through the owner index", async () => {
    const schema = db.another();
    const store = postgresStore({ pool: db.pool, schema });
    for (let i = 0; i < 30; i++) await store.createSession({ id: `s${i}`, owner: i % 3 === 0 ? "alice" : `user-${i}` });
    expect((await store.listSessions({ owner: "alice", limit: 3 })).map((s) => s.id)).toEqual(["s27", "s24", "s21"]);
    const client = await db.pool.connect();
    try {
      // A small table is cheaper to scan: the planner is asked to use an index wherever it can.
      await client.query("SET enable_seqscan = off");
      const { rows } = await client.query(
        `EXPLAIN SELECT id FROM "${schema}".june_sessions WHERE owner = $1 ORDER BY updated_ms DESC, touched DESC LIMIT 20`,
        ["alice"],
      );
      const plan = rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("june_sessions_by_owner");
      expect(plan).not.toMatch(/Seq Scan/);
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });

  it("migrates a table made before sessions had owners: the column, filled from each session entry, and its index", async () => {
    const schema = db.another();
    const first = postgresStore({ pool: db.pool, schema });
    await first.createSession({ id: "old" });
    await first.createSession({ id: "owned", owner: "alice" });
    // What a database of an earlier June looks like: no owner column, no owner index.
    await db.pool.query(`DROP INDEX "${schema}".june_sessions_by_owner; ALTER TABLE "${schema}".june_sessions DROP COLUMN owner`);

    const store = postgresStore({ pool: db.pool, schema });
    expect((await store.getSession("owned"))?.owner).toBe("alice");
    expect((await store.getSession("old"))?.owner).toBeUndefined();
    await store.createSession({ id: "new", owner: "alice" });
    expect((await store.listSessions({ owner: "alice" })).map((s) => s.id)).toEqual(["new", "owned"]);
    const { rows } = await db.pool.query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'june_sessions_by_owner'", [schema]);
    expect(rows).toHaveLength(1);
    // Opened again: nothing left to migrate.
    expect((await postgresStore({ pool: db.pool, schema }).getSession("owned"))?.owner).toBe("alice");
  });

  it("an owner PostgreSQL would not keep exactly (a lone surrogate, NUL) is refused: at createSession and at authorize's answer, never U+FFFD's sessions", async () => {
    const store = postgresStore({ pool: db.pool, schema: db.another() });
    const chat = createChat({ model: scriptedModel(["hi"]), store });
    for (const owner of ["\ud800", "\udc00", "a\u0000b"]) {
      await expect(chat.createSession({ owner })).rejects.toThrow(/createSession: `owner` (is not well-formed Unicode: a lone surrogate|holds a NUL)/);
    }
    await chat.createSession({ id: "fffd", owner: "\ufffd" });
    // Over HTTP: each user's principal as `authorize` answers it, from the request's `x-user` (a JSON string in ASCII).
    const asciiJson = (text: string) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const base = await listen(createChatHandler(chat, { authorize: (request) => ({ owner: JSON.parse(request.headers.get("x-user")!) as string }) }));
    const as = (owner: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { "x-user": asciiJson(owner), "content-type": "application/json" } });
    for (const owner of ["\ud800", "\udc00", "a\u0000b"]) {
      const listed = await as(owner, "/sessions");
      expect(listed.status).toBe(500);
      expect(((await listed.json()) as { error: string }).error).toMatch(/authorize answered an "owner" that (is not well-formed Unicode|holds a NUL)/);
      const created = await as(owner, "/sessions", { method: "POST", body: "{}" });
      expect(created.status).toBe(500);
      await created.text();
    }
    const own = (await (await as("\ufffd", "/sessions")).json()) as { sessions: { id: string }[] };
    expect(own.sessions.map((s) => s.id)).toEqual(["fffd"]);
  });
});
