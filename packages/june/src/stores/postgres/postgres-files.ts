import { SessionNotFoundError } from "../errors.js";
import { fileIdOf, fileToKeep, keptRef, storedRef } from "../file-records.js";
import type { ChatStore, FileRef, NewFile, StoredFile } from "../types.js";
import { ensureFileTable, madeOnce, type PgNames, type PgPool } from "./postgres-schema.js";
import { FOREIGN_KEY_VIOLATION, pgText } from "./postgres-values.js";
import { hasCode } from "../error-code.js";

/** A PostgreSQL store's files: one row per content, in their own table made on first use (`ready`, after the store's). */
export function postgresFiles(pool: PgPool, names: PgNames, storeReady: () => Promise<void>): Required<Pick<ChatStore, "putFile" | "getFile">> & { ready(): Promise<void> } {
  const fileTable = madeOnce(() => ensureFileTable(pool, names));
  /** The store's tables, and the files table (made on first use). */
  async function readyFiles(): Promise<void> {
    await storeReady();
    return fileTable();
  }

  return {
    ready: readyFiles,

    async putFile(sessionId: string, file: NewFile): Promise<FileRef> {
      const kept = fileToKeep(sessionId, file);
      await readyFiles();
      // One copy per content: the same bytes again change nothing.
      await pool
        .query(`INSERT INTO ${names.files} (session_id, id, media_type, size, bytes) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id, id) DO NOTHING`, [
          sessionId,
          kept.id,
          pgText(kept.mediaType),
          kept.size,
          Buffer.from(kept.bytes.buffer, kept.bytes.byteOffset, kept.bytes.byteLength),
        ])
        .catch((error: unknown) => {
          throw hasCode(error, FOREIGN_KEY_VIOLATION) ? new SessionNotFoundError(sessionId) : error;
        });
      return keptRef(kept);
    },

    async getFile(sessionId: string, fileId: string): Promise<StoredFile | undefined> {
      const id = fileIdOf(sessionId, fileId);
      if (id === undefined) return undefined;
      await readyFiles();
      const { rows } = await pool.query(`SELECT media_type, bytes FROM ${names.files} WHERE session_id = $1 AND id = $2`, [sessionId, id]);
      const row = rows[0] as { media_type: string; bytes: Buffer } | undefined;
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      return { ref: storedRef(id, row.media_type, bytes.byteLength), bytes };
    },
  };
}
