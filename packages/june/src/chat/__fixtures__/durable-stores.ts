import type { ChatStore } from "../index.js";

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

