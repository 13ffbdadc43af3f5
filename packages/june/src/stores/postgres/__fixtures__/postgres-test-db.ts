import { randomUUID } from "node:crypto";
import pg from "pg";

/** The test database: `JUNE_TEST_POSTGRES_URL`, else the local server CI starts (trust auth). */
export const TEST_DATABASE_URL = process.env.JUNE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const START_COMMAND = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

/**
 * Connects once to check the server is up. A server that is down fails the tests (never skips them) with
 * the command that starts it.
 */
export async function checkServer(url = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    const where = new URL(url).host;
    throw new Error(
      `PostgreSQL is not reachable at ${where} (${(error as Error).message}). These tests need it: start it with ` +
        `\`${START_COMMAND}\` (.ci/run does), or point JUNE_TEST_POSTGRES_URL at another server.`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema of its own for one test file, and a pool to use and end; `drop()` removes both. */
export interface TestSchema {
  schema: string;
  pool: pg.Pool;
  /** A fresh schema name (dropped with the others by `drop()`). */
  another(): string;
  drop(): Promise<void>;
}

/** Checks the server, then names a unique schema for a test file (created by the store on first use). */
export async function testSchema(label: string): Promise<TestSchema> {
  await checkServer();
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10 });
  pool.on("error", () => undefined);
  const names: string[] = [];
  const another = () => {
    const name = `june_test_${label}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    names.push(name);
    return name;
  };
  const schema = another();
  return {
    schema,
    pool,
    another,
    async drop() {
      try {
        for (const name of names) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}
