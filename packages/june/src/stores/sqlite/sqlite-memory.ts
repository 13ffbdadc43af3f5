import {
  MAX_MEMORY_VERSIONS,
  checkMemoryKey,
  checkMemoryUpdate,
  checkRecallEntries,
  checkRecallQuery,
  checkRecallTarget,
  exactSearch,
  nextVersion,
  versionOfRow,
  type MemoryVersionRow,
} from "../memory-records.js";
import type { MemoryStoreMethods } from "../memory-types.js";
import type { SqliteDatabase } from "./sqlite-schema.js";

interface RecallRow {
  session_id: string;
  turn_id: string;
  text: string;
  at: string;
  embedding: Buffer;
}

/**
 * A SQLite store's memory area: `june_memory` (a row per working memory version) and `june_recall` (a row per
 * indexed turn, its embedding as float64 bytes), searched exactly in process. `write` runs a write transaction,
 * `read` a read one (the store's own).
 */
export function sqliteMemory(db: SqliteDatabase, write: <T>(fn: () => T) => T, read: <T>(fn: () => T) => T): MemoryStoreMethods & { forgetSession(sessionId: string): void } {
  const sql = {
    latest: db.prepare<[string, string], MemoryVersionRow>("SELECT version, text, at, session_id, turn_id FROM june_memory WHERE scope = ? AND key_id = ? ORDER BY version DESC LIMIT 1"),
    versions: db.prepare<[string, string], MemoryVersionRow>("SELECT version, text, at, session_id, turn_id FROM june_memory WHERE scope = ? AND key_id = ? ORDER BY version"),
    insertVersion: db.prepare("INSERT INTO june_memory (scope, key_id, version, text, at, session_id, turn_id) VALUES (?, ?, ?, ?, ?, ?, ?)"),
    pruneVersions: db.prepare("DELETE FROM june_memory WHERE scope = ? AND key_id = ? AND version <= ?"),
    deleteMemory: db.prepare("DELETE FROM june_memory WHERE scope = ? AND key_id = ?"),
    putRecall: db.prepare(
      `INSERT INTO june_recall (session_id, turn_id, owner, text, content_hash, embedding, at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, turn_id) DO UPDATE SET owner = excluded.owner, text = excluded.text, content_hash = excluded.content_hash, embedding = excluded.embedding, at = excluded.at`,
    ),
    ownerRecall: db.prepare<[string], RecallRow>("SELECT session_id, turn_id, text, at, embedding FROM june_recall WHERE owner = ?"),
    deleteOwnerRecall: db.prepare("DELETE FROM june_recall WHERE owner = ?"),
    deleteSessionRecall: db.prepare("DELETE FROM june_recall WHERE session_id = ?"),
  };
  const floats = (bytes: Buffer) => new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

  return {
    async getMemory(key) {
      const { scope, id } = checkMemoryKey("getMemory", key);
      const row = read(() => sql.latest.get(scope, id));
      return row && versionOfRow(row);
    },
    async putMemory(key, update) {
      const { scope, id } = checkMemoryKey("putMemory", key);
      const checked = checkMemoryUpdate(update);
      return write(() => {
        const row = sql.latest.get(scope, id);
        const latest = row && versionOfRow(row);
        const next = nextVersion(latest, checked);
        if (!next) return latest!;
        sql.insertVersion.run(scope, id, next.version, next.text, next.at, next.sessionId ?? null, next.turnId ?? null);
        sql.pruneVersions.run(scope, id, next.version - MAX_MEMORY_VERSIONS);
        return next;
      });
    },
    async listMemoryVersions(key) {
      const { scope, id } = checkMemoryKey("listMemoryVersions", key);
      return read(() => sql.versions.all(scope, id)).map(versionOfRow);
    },
    async deleteMemory(key) {
      const { scope, id } = checkMemoryKey("deleteMemory", key);
      return write(() => sql.deleteMemory.run(scope, id).changes > 0);
    },
    async putRecall(entries) {
      const checked = checkRecallEntries(entries);
      write(() => {
        for (const e of checked) {
          sql.putRecall.run(e.sessionId, e.turnId, e.owner, e.text, e.contentHash, Buffer.from(new Float64Array(e.embedding).buffer), e.at);
        }
      });
    },
    async searchRecall(query) {
      const checked = checkRecallQuery(query);
      const rows = read(() => sql.ownerRecall.all(checked.owner));
      return exactSearch(checked, rows.map((r) => ({ sessionId: r.session_id, turnId: r.turn_id, text: r.text, at: r.at, embedding: floats(r.embedding) })));
    },
    async deleteRecall(target) {
      const checked = checkRecallTarget(target);
      return write(() => ("owner" in checked ? sql.deleteOwnerRecall.run(checked.owner) : sql.deleteSessionRecall.run(checked.sessionId)).changes);
    },
    forgetSession(sessionId) {
      sql.deleteSessionRecall.run(sessionId);
      sql.deleteMemory.run("session", sessionId);
    },
  };
}
