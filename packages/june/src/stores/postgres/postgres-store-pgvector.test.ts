import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../testing/__fixtures__/seeded-random.js";
import { storeConformanceCases } from "../../testing/store-conformance.js";
import { exactSearch } from "../memory-records.js";
import type { RecallEntry, RecallQuery } from "../memory-types.js";
import { checkServer, TEST_DATABASE_URL } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

// pgvector's path runs in a database of its own, made and dropped here: the extension is database-wide, and the
// shared test database stays without it so the other files keep testing the exact search in process.
const database = `june_test_pgvector_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${database}`;
  return u.toString();
})();

let pool: pg.Pool | undefined;
let skipped: string | undefined;
/** The SQL texts the store sent, to see which search ran. */
const sent: string[] = [];

beforeAll(async () => {
  await checkServer();
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } catch (error) {
    skipped = `cannot create a database for the pgvector tests (${(error as Error).message})`;
    return;
  } finally {
    await admin.end();
  }
  pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => undefined);
  try {
    await pool.query("CREATE EXTENSION IF NOT EXISTS vector");
  } catch (error) {
    skipped =
      `the \`vector\` extension cannot be created (${(error as Error).message}): install pgvector for this server ` +
      "(Debian's postgresql-<major>-pgvector where it is packaged, else from pgvector's source; .ci/run installs the package when it can)";
  }
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    sent.push(typeof args[0] === "string" ? args[0] : String((args[0] as { text?: unknown }).text));
    return query(...args);
  };
}, 30_000);

afterAll(async () => {
  await pool?.end();
  if (skipped?.startsWith("cannot create a database")) return;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}, 30_000);

const store = (schema: string) => postgresStore({ pool: pool!, schema });

describe("postgresStore memory with pgvector", () => {
  const schema = `june_test_pgv_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const memory = storeConformanceCases(() => store(schema)).filter((c) => c.name.startsWith("store: memory:"));
  for (const c of memory) {
    it(c.name, async (context) => {
      if (skipped) return context.skip(skipped);
      await c.run();
    });
  }

  it("searches in the database with pgvector's <=> when the extension is installed", async (context) => {
    if (skipped) return context.skip(skipped);
    const schema = `june_test_pgv_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const s = store(schema);
    try {
      const owner = `ada-${randomUUID()}`;
      const at = new Date().toISOString();
      await s.putRecall!([{ owner, sessionId: "s1", turnId: "t1", text: "x", contentHash: "0".repeat(64), embedding: [1, 0], at }]);
      sent.length = 0;
      expect((await s.searchRecall!({ owner, embedding: [1, 0], limit: 1 })).map((m) => m.score)).toEqual([1]);
      expect(sent.some((sql) => sql.includes("OPERATOR(") && sql.includes(".<=>)"))).toBe(true);
      expect(sent.some((sql) => /SELECT session_id, turn_id, text, at, embedding FROM/.test(sql))).toBe(false);
      // The column stays double precision[] (exact values; no migration when the extension comes or goes).
      const { rows } = await pool!.query("SELECT udt_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'june_recall' AND column_name = 'embedding'", [schema]);
      expect(rows).toEqual([{ udt_name: "_float8" }]);
    } finally {
      await s.close?.();
    }
  });

  it("finds what the exact search in process finds: ids, order and scores to 5 decimals (seeded, 300 entries)", async (context) => {
    if (skipped) return context.skip(skipped);
    const s = store(`june_test_pgv_${randomUUID().replace(/-/g, "").slice(0, 12)}`);
    try {
      const random = seededRandom(43);
      const next = random.next;
      const owners = [`ada-${randomUUID()}`, `bo-${randomUUID()}`];
      const sessions = Array.from({ length: 6 }, (_, i) => `s${i}`);
      const vector = (n: number) => Array.from({ length: n }, () => next() * 2 - 1);
      const entries: RecallEntry[] = [];
      for (let i = 0; i < 300; i++) {
        // Mostly 16 numbers; some of another length, some all zeros, some the same as an earlier one (a tie).
        const kind = next();
        const embedding =
          kind < 0.05 ? vector(8) : kind < 0.08 ? Array<number>(16).fill(0) : kind < 0.12 && entries.length > 0 ? [...entries[entries.length - 1]!.embedding] : vector(16);
        const text = `turn ${i}`;
        entries.push({
          owner: owners[i % 2]!,
          sessionId: sessions[Math.floor(next() * sessions.length)]!,
          turnId: `t${i}`,
          text,
          contentHash: createHash("sha256").update(text).digest("hex"),
          embedding,
          at: new Date(Date.UTC(2026, 11, 7, 0, 0, i)).toISOString(),
        });
      }
      await s.putRecall!(entries);
      const queries: RecallQuery[] = [];
      for (let q = 0; q < 12; q++) {
        queries.push({ owner: owners[q % 2]!, embedding: q === 11 ? Array<number>(16).fill(0) : vector(16), limit: 5 + q * 8, ...(q % 3 === 0 ? { excludeSessionId: sessions[q % 6] } : {}) });
      }
      queries.push({ owner: owners[0]!, embedding: vector(8), limit: 100 });
      for (const query of queries) {
        const found = await s.searchRecall!(query);
        const exact = exactSearch(query, entries.filter((e) => e.owner === query.owner));
        expect(found.map((m) => `${m.sessionId}/${m.turnId}`), `seed ${random.seed}`).toEqual(exact.map((m) => `${m.sessionId}/${m.turnId}`));
        const apart = Math.max(0, ...found.map((m, i) => Math.abs(m.score - exact[i]!.score)));
        expect(apart, "pgvector computes in single precision: scores agree to 5 decimals").toBeLessThan(1e-5);
        expect(found.map((m) => [m.text, m.at])).toEqual(exact.map((m) => [m.text, m.at]));
      }
    } finally {
      await s.close?.();
    }
  });
});
