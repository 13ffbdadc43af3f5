import { SessionNotFoundError, assertSessionId } from "../errors.js";
import { checkCheckpointArgs } from "../store-helpers.js";
import type { ChatStore, StoredCheckpoint } from "../types.js";
import { ensureCheckpointTable, madeOnce, type PgNames, type PgPool } from "./postgres-schema.js";
import { FOREIGN_KEY_VIOLATION, pgText, toStoredCheckpoint } from "./postgres-values.js";
import { hasCode } from "../error-code.js";

/** A PostgreSQL store's checkpoints: rows of their own table, made on first use (`ready`, after the store's). */
export function postgresCheckpoints(pool: PgPool, names: PgNames, storeReady: () => Promise<void>): Required<Pick<ChatStore, "putCheckpoint" | "getCheckpoint" | "listCheckpoints" | "deleteCheckpoint">> & { ready(): Promise<void> } {
  const checkpointTable = madeOnce(() => ensureCheckpointTable(pool, names));
  /** The store's tables, and the checkpoints table (made on first use). */
  async function readyCheckpoints(): Promise<void> {
    await storeReady();
    return checkpointTable();
  }

  const { checkpoints: C } = names;

  return {
    ready: readyCheckpoints,

    async putCheckpoint(sessionId: string, turnId: string, data: string): Promise<void> {
      checkCheckpointArgs("putCheckpoint", sessionId, turnId, data);
      await readyCheckpoints();
      await pool
        .query(
          `INSERT INTO ${C} (session_id, turn_id, data) VALUES ($1, $2, $3)
           ON CONFLICT (session_id, turn_id) DO UPDATE SET data = excluded.data, updated_at = clock_timestamp()`,
          [sessionId, turnId, pgText(data)],
        )
        .catch((error: unknown) => {
          throw hasCode(error, FOREIGN_KEY_VIOLATION) ? new SessionNotFoundError(sessionId) : error;
        });
    },

    async getCheckpoint(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined> {
      checkCheckpointArgs("getCheckpoint", sessionId, turnId);
      await readyCheckpoints();
      const { rows } = await pool.query(`SELECT turn_id, data, updated_at FROM ${C} WHERE session_id = $1 AND turn_id = $2`, [sessionId, turnId]);
      return rows[0] && toStoredCheckpoint(rows[0]);
    },

    async listCheckpoints(sessionId: string): Promise<StoredCheckpoint[]> {
      assertSessionId(sessionId);
      await readyCheckpoints();
      const { rows } = await pool.query(`SELECT turn_id, data, updated_at FROM ${C} WHERE session_id = $1 ORDER BY updated_at, turn_id`, [sessionId]);
      return rows.map(toStoredCheckpoint);
    },

    async deleteCheckpoint(sessionId: string, turnId: string): Promise<boolean> {
      checkCheckpointArgs("deleteCheckpoint", sessionId, turnId);
      await readyCheckpoints();
      const { rowCount } = await pool.query(`DELETE FROM ${C} WHERE session_id = $1 AND turn_id = $2`, [sessionId, turnId]);
      return (rowCount ?? 0) > 0;
    },
  };
}
