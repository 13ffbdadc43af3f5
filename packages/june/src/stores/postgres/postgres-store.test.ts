import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeConformanceCases } from "../../testing/store-conformance.js";
import type { NewJournalEntry } from "../types.js";
import { checkServer, TEST_DATABASE_URL, testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("store");
});
afterAll(async () => {
  await db?.drop();
});

const turn = (turnId: string, input = `input of ${turnId}`): NewJournalEntry[] => [
  { type: "turn-start", turnId, input, context: { builder: "full", turnIds: [] } },
  { type: "turn-end", turnId, status: "completed", text: `reply to ${turnId}` },
];

describe("postgresStore conformance (a shared pool)", () => {
  for (const c of storeConformanceCases(() => postgresStore({ pool: db.pool, schema: db.schema }))) it(c.name, c.run);
});

describe("postgresStore conformance (its own pool per case, another table prefix)", () => {
  const make = () => postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema, tablePrefix: "own_", max: 3 });
  for (const c of storeConformanceCases(make)) it(c.name, c.run);
});

describe("postgresStore", () => {
  it("creates its tables once when several stores start at the same moment", async () => {
    const schema = db.another();
    const stores = Array.from({ length: 6 }, () => postgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2 }));
    try {
      // Each store's first call creates the schema and tables; CREATE SCHEMA IF NOT EXISTS alone would race.
      await Promise.all(stores.map((store, i) => store.createSession({ id: `s${i}` })));
      expect((await stores[0].listSessions()).map((s) => s.id).sort()).toEqual(["s0", "s1", "s2", "s3", "s4", "s5"]);
      const { rows } = await db.pool.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual(["june_entries", "june_leases", "june_sessions"]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("keeps the json of entries exactly: key order, unicode, NUL and lone surrogates", async () => {
    const store = postgresStore({ pool: db.pool, schema: db.schema });
    const odd = "nul:\u0000 lone:\ud800 pair:🎉 quote:\" back:\\ newline:\n";
    await store.createSession({ id: "json", metadata: { z: 1, a: { y: [1, "two", null, true], b: "ü 日本 🎉" } } });
    const written = await store.append(
      "json",
      [
        { type: "turn-start", turnId: "t1", input: odd, context: { builder: "recent", turnIds: ["x"], summaryId: "s1" } },
        {
          type: "turn-end",
          turnId: "t1",
          status: "completed",
          text: odd,
          metadata: { responder: { kind: "model" }, usage: { outputTokens: 7, inputTokens: 3 }, finishReason: "stop" },
        },
      ],
      { expectedSeq: 1 },
    );
    const read = (await store.read("json")).slice(1);
    expect(read).toEqual(written);
    expect(read.map((e) => JSON.stringify(e))).toEqual(written.map((e) => JSON.stringify(e)));
    expect(Object.keys(read[1])).toEqual(["type", "at", "seq", "turnId", "status", "text", "metadata"]);
    const info = await store.getSession("json");
    expect(Object.keys(info!.metadata!)).toEqual(["z", "a"]);
    // A text column cannot hold NUL: the title shows U+FFFD; the journal keeps the input as it was.
    expect(info!.title).toBe('nul:\uFFFD lone:\uFFFD pair:🎉 quote:" back:\\ newline:');
    expect((read[0] as { input: string }).input).toBe(odd);
  });

  it("reads back what another store wrote, after that store closed its pool", async () => {
    const first = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    await first.createSession({ id: "reopen", metadata: { owner: "ada" } });
    const written = await first.append("reopen", turn("t1", "hello there"), { expectedSeq: 1, sync: true });
    const before = await first.read("reopen");
    await first.close();
    await expect(first.read("reopen")).rejects.toMatchObject({ name: "StoreClosedError", store: "postgresStore" });

    const again = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    try {
      expect(await again.read("reopen")).toEqual(before);
      expect((await again.read("reopen")).slice(1)).toEqual(written);
      expect(await again.getSession("reopen")).toMatchObject({ title: "hello there", turnCount: 1, metadata: { owner: "ada" } });
    } finally {
      await again.close();
    }
  });

  it("close() leaves a pool it was given open", async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    try {
      const store = postgresStore({ pool, schema: db.schema });
      await store.createSession({ id: "given-pool" });
      await store.close();
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it("lists many sessions newest first and pages through them", async () => {
    const schema = db.another();
    const store = postgresStore({ pool: db.pool, schema });
    const base = Date.UTC(2031, 0, 1);
    const count = 10_000;
    const ids = Array.from({ length: count }, (_, i) => i);
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        ids.slice(i, i + 50).map(async (k) => {
          await store.createSession({ id: `s${k}` });
          await store.append(`s${k}`, [{ ...turn("t")[0], at: new Date(base + k * 1000).toISOString() }], { expectedSeq: 1 });
        }),
      );
    }
    const page = await store.listSessions({ limit: 20 });
    expect(page.map((s) => s.id)).toEqual(Array.from({ length: 20 }, (_, i) => `s${count - 1 - i}`));
    const next = await store.listSessions({ limit: 2, before: page[19].updatedAt });
    expect(next.map((s) => s.id)).toEqual([`s${count - 21}`, `s${count - 22}`]);
    const all = await store.listSessions();
    expect(all).toHaveLength(count);
    expect(all[count - 1]).toMatchObject({ id: "s0", turnCount: 1, title: "input of t" });
  }, 120_000);

  it("refuses bad options with errors that name them", () => {
    expect(() => postgresStore(undefined as never)).toThrow(/connectionString/);
    expect(() => postgresStore({} as never)).toThrow(/either/);
    expect(() => postgresStore({ connectionString: TEST_DATABASE_URL, pool: db.pool } as never)).toThrow(/not both/);
    expect(() => postgresStore({ connectionString: "" })).toThrow(/connectionString/);
    expect(() => postgresStore({ pool: {} as never })).toThrow(/pool/);
    expect(() => postgresStore({ pool: db.pool, schema: 'x"; DROP TABLE y; --' })).toThrow(/schema/);
    expect(() => postgresStore({ pool: db.pool, tablePrefix: "a-b" })).toThrow(/tablePrefix/);
    expect(() => postgresStore({ pool: db.pool, leaseTtlMs: -5 })).toThrow(/leaseTtlMs/);
    expect(() => postgresStore({ connectionString: TEST_DATABASE_URL, max: 0 })).toThrow(/max/);
  });

  it("a server that is down fails with the command to start it", async () => {
    // Nothing listens on port 1.
    await expect(checkServer("postgres://postgres@127.0.0.1:1/test")).rejects.toThrow(/pg_ctlcluster --skip-systemctl-redirect/);
  });

  it("a store whose server is down rejects its calls with the driver's error", async () => {
    const down = postgresStore({ connectionString: "postgres://postgres@127.0.0.1:1/test" });
    try {
      await expect(down.getSession("s")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    } finally {
      await down.close();
    }
  });
});
