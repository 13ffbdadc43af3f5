import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgPool } from "./postgres-schema.js";
import { testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("round_trips");
});
afterAll(async () => {
  await db?.drop();
});

/** The test pool, counting the statements sent through it. */
function counted(): { pool: PgPool; sent: string[] } {
  const sent: string[] = [];
  const pool: PgPool = {
    query: ((text: string, values?: unknown[]) => {
      sent.push(text);
      return db.pool.query(text, values);
    }) as PgPool["query"],
    connect: () => db.pool.connect() as never,
    end: async () => {},
  };
  return { pool, sent };
}

describe("postgresStore round trips of a turn", () => {
  it("a turn-end appended with endsLease releases the lease in the same statement; releaseTurn then sends nothing", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    await store.createSession({ id: "s" });
    sent.length = 0;
    const lease = await store.acquireTurn("s");
    await store.append("s", [{ type: "turn-start", turnId: "t", input: "hi", context: { builder: "full", turnIds: [] } }], { expectedSeq: 1 });
    await store.append("s", [{ type: "turn-end", turnId: "t", status: "completed", text: "hello" }], { expectedSeq: 2, sync: true, endsLease: lease });
    await store.releaseTurn(lease);
    expect(sent.length).toBe(3);
    // Released: another holder takes it at once.
    const next = await store.acquireTurn("s");
    await store.releaseTurn(next);
    await store.close();
  });

  it("an append that fails (a conflict) keeps the lease; releaseTurn releases it", async () => {
    const store = postgresStore({ pool: counted().pool, schema: db.schema });
    await store.createSession({ id: "c" });
    const lease = await store.acquireTurn("c");
    await expect(
      store.append("c", [{ type: "feedback", turnId: "x", score: 1 }], { expectedSeq: 5, endsLease: lease }),
    ).rejects.toMatchObject({ name: "ConflictError" });
    await expect(store.acquireTurn("c")).rejects.toMatchObject({ name: "SessionBusyError" });
    await store.releaseTurn(lease);
    await store.releaseTurn(await store.acquireTurn("c"));
    await store.close();
  });

  it("a lease of another session given as endsLease is left alone", async () => {
    const store = postgresStore({ pool: counted().pool, schema: db.schema });
    await store.createSession({ id: "a" });
    await store.createSession({ id: "b" });
    const leaseB = await store.acquireTurn("b");
    await store.append("a", [{ type: "feedback", turnId: "x", score: 1 }], { expectedSeq: 1, endsLease: leaseB });
    await expect(store.acquireTurn("b")).rejects.toMatchObject({ name: "SessionBusyError" });
    await store.releaseTurn(leaseB);
    await store.close();
  });
});
