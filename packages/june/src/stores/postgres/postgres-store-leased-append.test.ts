import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewJournalEntry } from "../types.js";
import { testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("leased_append");
});
afterAll(async () => {
  await db?.drop();
});

const start = (turnId: string): NewJournalEntry => ({ type: "turn-start", turnId, input: "hi", context: { builder: "fullContext", turnIds: [] } });

/** Waits until a statement of the store's waits on a row lock another transaction holds. */
async function untilWaitingOnALock(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%taken AS%' AND datname = current_database()`,
    );
    if (rows[0].n > 0) return;
    await sleep(10);
  }
  throw new Error("the statement never waited on the lock");
}

/** The session's row and the rows beside it, as they are. */
async function stateOf(id: string) {
  const q = (sql: string) => db.pool.query(sql, [id]).then((r) => r.rows);
  const [session] = await q(`SELECT last_seq, turn_count FROM "${db.schema}".june_sessions WHERE id = $1`);
  const entries = await q(`SELECT seq FROM "${db.schema}".june_entries WHERE session_id = $1 ORDER BY seq`);
  const leases = await q(`SELECT owner FROM "${db.schema}".june_leases WHERE session_id = $1`);
  return { lastSeq: session.last_seq, turnCount: session.turn_count, seqs: entries.map((e) => e.seq), owners: leases.map((l) => l.owner) };
}

describe("postgresStore acquireTurnAndAppend under another transaction", () => {
  it("a lease taken by a transaction the statement's snapshot does not see: the statement writes nothing (its row update is rolled back)", async () => {
    const store = postgresStore({ pool: db.pool, schema: db.schema });
    await store.createSession({ id: "race" });
    const other = await db.pool.connect();
    try {
      // Another process's acquireTurn, not yet committed when the statement starts.
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO "${db.schema}".june_leases (session_id, token, owner, acquired_at, expires_at)
         VALUES ('race', 'theirs', 'another process', clock_timestamp(), clock_timestamp() + interval '1 hour')`,
      );
      const attempt = store.acquireTurnAndAppend("race", [start("t1")], { expectedSeq: 1 }).then(
        () => "took it",
        (error: unknown) => error,
      );
      await untilWaitingOnALock();
      await other.query("COMMIT");
      expect(await attempt).toMatchObject({ name: "SessionBusyError", sessionId: "race" });
      expect(String((await attempt) as Error)).toContain("another process");
      expect(await stateOf("race")).toEqual({ lastSeq: 1, turnCount: 0, seqs: [1], owners: ["another process"] });
    } finally {
      other.release();
    }
    await store.close();
  });

  it("a journal moved by a transaction that commits while the statement waits: ConflictError, nothing written, no lease taken", async () => {
    const store = postgresStore({ pool: db.pool, schema: db.schema });
    await store.createSession({ id: "moved" });
    const other = await db.pool.connect();
    try {
      // Another writer's append (a rename, which takes no lease), holding the session row until it commits.
      await other.query("BEGIN");
      await other.query(`UPDATE "${db.schema}".june_sessions SET last_seq = 2 WHERE id = 'moved'`);
      await other.query(
        `INSERT INTO "${db.schema}".june_entries (session_id, seq, type, at, entry)
         VALUES ('moved', 2, 'rename', '2026-01-01T00:00:00.000Z', '{"type":"rename","at":"2026-01-01T00:00:00.000Z","seq":2,"title":"x"}')`,
      );
      const attempt = store.acquireTurnAndAppend("moved", [start("t1")], { expectedSeq: 1 }).then(
        () => "took it",
        (error: unknown) => error,
      );
      await untilWaitingOnALock();
      await other.query("COMMIT");
      expect(await attempt).toMatchObject({ name: "ConflictError", sessionId: "moved" });
      expect(await stateOf("moved")).toEqual({ lastSeq: 2, turnCount: 0, seqs: [1, 2], owners: [] });
    } finally {
      other.release();
    }
    // From the seq it now is at, it takes the lease and appends.
    const { lease, entries } = await store.acquireTurnAndAppend("moved", [start("t1")], { expectedSeq: 2 });
    expect(entries.map((e) => e.seq)).toEqual([3]);
    expect(await stateOf("moved")).toMatchObject({ lastSeq: 3, turnCount: 1, seqs: [1, 2, 3] });
    await store.releaseTurn(lease);
    await store.close();
  });

  it("an expired lease is taken over; a default lease is renewed while held and released with the turn's end", async () => {
    const store = postgresStore({ pool: db.pool, schema: db.schema, leaseTtlMs: 200 });
    await store.createSession({ id: "renew" });
    await db.pool.query(
      `INSERT INTO "${db.schema}".june_leases (session_id, token, owner, acquired_at, expires_at)
       VALUES ('renew', 'dead', 'a crashed process', clock_timestamp() - interval '1 hour', clock_timestamp() - interval '1 second')`,
    );
    const { lease } = await store.acquireTurnAndAppend("renew", [start("t1")], { expectedSeq: 1 });
    await sleep(500); // longer than the ttl: renewed meanwhile
    await expect(store.acquireTurn("renew")).rejects.toMatchObject({ name: "SessionBusyError" });
    await store.append("renew", [{ type: "turn-end", turnId: "t1", status: "completed", text: "ok" }], { expectedSeq: 2, endsLease: lease });
    await store.releaseTurn(lease);
    expect((await stateOf("renew")).owners).toEqual([]);
    await expect(store.acquireTurnAndAppend("renew", [], { expectedSeq: 3 })).rejects.toThrow(TypeError);
    await store.close();
  });
});
