/**
 * Two stores with pools of their own stand for two server processes sharing one database: their appends race
 * on real connections, their leases exclude each other.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConflictError } from "../errors.js";
import type { NewJournalEntry } from "../types.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore, type PostgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("sharing");
});
afterAll(async () => {
  await db?.drop();
});

const open: PostgresStore[] = [];
/** A store with a pool of its own, as another process would have. */
function processStore(options: { leaseTtlMs?: number } = {}): PostgresStore {
  const store = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, max: 4, ...options });
  open.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

const turn = (turnId: string): NewJournalEntry[] => [
  { type: "turn-start", turnId, input: `input of ${turnId}`, context: { builder: "full", turnIds: [] } },
  { type: "turn-end", turnId, status: "completed", text: `reply to ${turnId}` },
];

describe("postgresStore shared by two pools", () => {
  it("appends with the same expectedSeq from both: exactly one wins each round", async () => {
    const a = processStore();
    const b = processStore();
    await a.createSession({ id: "race" });
    let seq = 1;
    for (let round = 0; round < 10; round++) {
      const attempts = [a, b, a, b].map((store, i) => store.append("race", turn(`r${round}-${i}`), { expectedSeq: seq }));
      const results = await Promise.allSettled(attempts);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const r of results) {
        if (r.status === "rejected") expect(ConflictError.isInstance(r.reason), String(r.reason)).toBe(true);
      }
      expect((won[0] as PromiseFulfilledResult<{ seq: number }[]>).value.map((e) => e.seq)).toEqual([seq + 1, seq + 2]);
      seq += 2;
    }
    const entries = await b.read("race");
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    // Every batch whole: each turn-start is followed by its own turn-end.
    for (let i = 1; i < entries.length; i += 2) {
      expect(entries[i + 1]).toMatchObject({ type: "turn-end", turnId: (entries[i] as { turnId: string }).turnId });
    }
    const info = await a.getSession("race");
    expect(info).toMatchObject({ turnCount: 10, updatedAt: entries[20].at });
    expect(info?.title).toBe((entries[1] as { input: string }).input);
  });

  it("a lease held through one pool is refused through the other, and taken after it expires", async () => {
    const a = processStore();
    const b = processStore();
    await a.createSession({ id: "lease" });
    const held = await a.acquireTurn("lease", { ttlMs: 1500 });
    const busy = b.acquireTurn("lease");
    await expect(busy).rejects.toMatchObject({ name: "SessionBusyError", sessionId: "lease" });
    await expect(b.acquireTurn("lease")).rejects.toThrow(/held by .+ pid \d+ until \d{4}-\d\d-\d\dT/);
    // Someone else's release leaves it in place.
    await b.releaseTurn({ sessionId: "lease", token: "not-the-holder" });
    await expect(b.acquireTurn("lease")).rejects.toMatchObject({ name: "SessionBusyError" });
    await sleep(1700);
    const taken = await b.acquireTurn("lease");
    expect(taken.token).not.toBe(held.token);
    // The expired holder's release does not free the new holder's lease.
    await a.releaseTurn(held);
    await expect(a.acquireTurn("lease")).rejects.toMatchObject({ name: "SessionBusyError" });
    await b.releaseTurn(taken);
    await a.releaseTurn(await a.acquireTurn("lease"));
  });

  it("a default lease is renewed while its holder runs, and expires once the holder is gone", async () => {
    const holder = processStore({ leaseTtlMs: 600 });
    const other = processStore({ leaseTtlMs: 600 });
    await holder.createSession({ id: "renewed" });
    const lease = await holder.acquireTurn("renewed");
    const expiries = new Set<string>();
    for (let i = 0; i < 6; i++) {
      await sleep(250);
      await expect(other.acquireTurn("renewed")).rejects.toMatchObject({ name: "SessionBusyError" });
      const { rows } = await db.pool.query(
        `SELECT expires_at::text AS e FROM "${db.schema}".june_leases WHERE session_id = 'renewed'`,
      );
      expiries.add(rows[0].e as string);
    }
    // Held for more than twice its expiry: renewed.
    expect(expiries.size).toBeGreaterThan(1);
    await holder.close(); // as if the process died: nobody renews, nobody releases
    await sleep(800);
    const taken = await other.acquireTurn("renewed");
    expect(taken.token).not.toBe(lease.token);
    await other.releaseTurn(taken);
  });

  it("deleting a session takes its entries and lease with it", async () => {
    const a = processStore();
    const b = processStore();
    await a.createSession({ id: "gone" });
    await a.append("gone", turn("t"), { expectedSeq: 1 });
    await a.acquireTurn("gone");
    expect(await b.deleteSession("gone")).toBe(true);
    const count = async (table: string) =>
      (await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".${table} WHERE session_id = 'gone'`)).rows[0].n;
    expect([await count("june_entries"), await count("june_leases")]).toEqual([0, 0]);
    await expect(a.append("gone", turn("u"), { expectedSeq: 3 })).rejects.toMatchObject({ name: "SessionNotFoundError" });
    await expect(a.acquireTurn("gone")).rejects.toMatchObject({ name: "SessionNotFoundError" });
  });
});
