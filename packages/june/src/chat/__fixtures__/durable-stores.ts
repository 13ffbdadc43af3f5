import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatStore, Turn } from "../index.js";

/**
 * The store of a durable-turn test: a file store, SQLite or PostgreSQL (a schema of its own; leases of 1 s,
 * so a killed holder's lease runs out soon: PostgreSQL cannot see that a process on another machine died).
 */
export async function openStore(kind: string, where: string): Promise<ChatStore> {
  switch (kind) {
    case "file":
      return (await import("../../stores/file-store.js")).fileStore(where);
    case "sqlite":
      return (await import("../../stores/sqlite/sqlite-store.js")).sqliteStore(where);
    case "postgres": {
      const { TEST_DATABASE_URL } = await import("../../stores/postgres/__fixtures__/postgres-test-db.js");
      return (await import("../../stores/postgres/postgres-store.js")).postgresStore({ connectionString: TEST_DATABASE_URL, schema: where, leaseTtlMs: 1000 });
    }
    default:
      throw new Error(`durable-child: unknown store kind ${kind}`);
  }
}


/** Every byte of every file under `dir` (latin1), as one text: all a file or SQLite store keeps there. */
export function storedFiles(dir: string): string {
  let out = "";
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name), "latin1");
  }
  return out;
}

/** Every row of every table of `schema`, as JSON text: all a PostgreSQL store keeps. */
export async function storedRows(pool: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }, schema: string): Promise<string> {
  const tables = await pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema]);
  let out = "";
  for (const { table_name } of tables.rows as { table_name: string }[]) {
    out += JSON.stringify((await pool.query(`SELECT * FROM "${schema}"."${table_name}"`)).rows);
  }
  return out;
}

/** Makes session `s1` in the store of `kind` at `where`, then closes the store: what a child process then opens. */
export async function createS1(kind: string, where: string): Promise<void> {
  const setup = await openStore(kind, where);
  await setup.createSession({ id: "s1" });
  await setup.close?.();
}

/** `session.resume`, waiting out (up to 5 s) the lease a killed process left (PostgreSQL: until it expires). */
export async function resumeAfterDeath(session: { resume(turnId: string): Promise<Turn> }, turnId: string): Promise<Turn> {
  for (let waited = 0; ; waited += 100) {
    try {
      return await session.resume(turnId);
    } catch (error) {
      if ((error as Error).name !== "SessionBusyError" || waited > 5000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
