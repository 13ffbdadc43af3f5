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
import type { MemoryStoreMethods, RecallMatch, RecallQuery } from "../memory-types.js";
import { ensureMemoryTables, madeOnce, type PgNames, type PgPool } from "./postgres-schema.js";
import { UNIQUE_VIOLATION, pgText } from "./postgres-values.js";
import { hasCode } from "../error-code.js";

/**
 * A PostgreSQL store's memory area: `<prefix>memory` (a row per working memory version) and `<prefix>recall` (a
 * row per indexed turn). Search is exact: with the `vector` extension installed in the database (pgvector), in
 * the database by its cosine distance (`<=>`); without it, in process over the owner's rows.
 */
export function postgresMemory(pool: PgPool, names: PgNames, storeReady: () => Promise<void>): MemoryStoreMethods & { forgetSession(sessionId: string): Promise<void> } {
  const tables = madeOnce(() => ensureMemoryTables(pool, names));
  let pgvector: Promise<string | undefined> | undefined;
  async function ready(): Promise<void> {
    await storeReady();
    await tables();
  }
  // The extension's schema, quoted, when `vector` is installed in the database; undefined otherwise. Looked up once.
  const pgvectorSchema = () =>
    (pgvector ??= pool
      .query("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'")
      .then((result) => (result.rows[0] ? `"${String((result.rows[0] as { nspname: string }).nspname).replace(/"/g, '""')}"` : undefined))
      .catch(() => undefined));
  const latestSql = `SELECT version, text, at, session_id, turn_id FROM ${names.memory} WHERE scope = $1 AND key_id = $2 ORDER BY version DESC LIMIT 1`;

  async function search(query: RecallQuery): Promise<RecallMatch[]> {
    const ext = await pgvectorSchema();
    if (ext !== undefined) {
      const { rows } = await pool.query(pgvectorSearchSql(names.recall, ext), [
        query.owner,
        query.embedding,
        query.embedding.length,
        query.excludeSessionId ?? null,
        query.limit,
      ]);
      return rows.map((r: { session_id: string; turn_id: string; text: string; at: string; score: number }) => ({
        sessionId: r.session_id,
        turnId: r.turn_id,
        text: r.text,
        at: r.at,
        score: Number(r.score),
      }));
    }
    const { rows } = await pool.query(`SELECT session_id, turn_id, text, at, embedding FROM ${names.recall} WHERE owner = $1`, [query.owner]);
    return exactSearch(
      query,
      rows.map((r: { session_id: string; turn_id: string; text: string; at: string; embedding: number[] }) => ({ sessionId: r.session_id, turnId: r.turn_id, text: r.text, at: r.at, embedding: r.embedding.map(Number) })),
    );
  }

  return {
    async getMemory(key) {
      const { scope, id } = checkMemoryKey("getMemory", key);
      await ready();
      const { rows } = await pool.query(latestSql, [scope, id]);
      return rows[0] && versionOfRow(rows[0] as MemoryVersionRow);
    },
    async putMemory(key, update) {
      const { scope, id } = checkMemoryKey("putMemory", key);
      const checked = checkMemoryUpdate(update);
      await ready();
      // Two writers of one version: the loser reads the winner's and tries once more.
      for (let attempt = 0; ; attempt++) {
        const { rows } = await pool.query(latestSql, [scope, id]);
        const latest = rows[0] && versionOfRow(rows[0] as MemoryVersionRow);
        const next = nextVersion(latest, checked);
        if (!next) return latest!;
        try {
          await pool.query(
            `WITH added AS (INSERT INTO ${names.memory} (scope, key_id, version, text, at, session_id, turn_id) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING 1)
             DELETE FROM ${names.memory} WHERE scope = $1 AND key_id = $2 AND version <= $8`,
            [scope, id, next.version, pgText(next.text), next.at, next.sessionId ?? null, next.turnId ?? null, next.version - MAX_MEMORY_VERSIONS],
          );
          return next;
        } catch (error) {
          if (!hasCode(error, UNIQUE_VIOLATION) || attempt >= 3) throw error;
        }
      }
    },
    async listMemoryVersions(key) {
      const { scope, id } = checkMemoryKey("listMemoryVersions", key);
      await ready();
      const { rows } = await pool.query(`SELECT version, text, at, session_id, turn_id FROM ${names.memory} WHERE scope = $1 AND key_id = $2 ORDER BY version`, [scope, id]);
      return (rows as MemoryVersionRow[]).map(versionOfRow);
    },
    async deleteMemory(key) {
      const { scope, id } = checkMemoryKey("deleteMemory", key);
      await ready();
      const { rowCount } = await pool.query(`DELETE FROM ${names.memory} WHERE scope = $1 AND key_id = $2`, [scope, id]);
      return (rowCount ?? 0) > 0;
    },
    async putRecall(entries) {
      const checked = checkRecallEntries(entries);
      if (checked.length === 0) return;
      await ready();
      await pool.query(
        `INSERT INTO ${names.recall} (session_id, turn_id, owner, text, content_hash, embedding, at)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(session_id text, turn_id text, owner text, text text, content_hash text, embedding double precision[], at text)
         ON CONFLICT (session_id, turn_id) DO UPDATE SET owner = excluded.owner, text = excluded.text, content_hash = excluded.content_hash, embedding = excluded.embedding, at = excluded.at`,
        [
          JSON.stringify(
            checked.map((e) => ({ session_id: e.sessionId, turn_id: e.turnId, owner: pgText(e.owner), text: pgText(e.text), content_hash: e.contentHash, embedding: e.embedding, at: e.at })),
          ),
        ],
      );
    },
    async searchRecall(query) {
      const checked = checkRecallQuery(query);
      await ready();
      return search(checked);
    },
    async deleteRecall(target) {
      const checked = checkRecallTarget(target);
      await ready();
      const { rowCount } =
        "owner" in checked
          ? await pool.query(`DELETE FROM ${names.recall} WHERE owner = $1`, [checked.owner])
          : await pool.query(`DELETE FROM ${names.recall} WHERE session_id = $1`, [checked.sessionId]);
      return rowCount ?? 0;
    },
    async forgetSession(sessionId) {
      await ready();
      await pool.query(`DELETE FROM ${names.recall} WHERE session_id = $1`, [sessionId]);
      await pool.query(`DELETE FROM ${names.memory} WHERE scope = 'session' AND key_id = $1`, [sessionId]);
    },
  };
}

/**
 * The search with pgvector, scored as `exactSearch` scores: `1 - (a <=> b)` (cosine distance to similarity), 0 for
 * an embedding of another length or of all zeros (where `<=>` would fail or give NaN); best first, ties newest
 * first. The extension's type, functions and operator are named with its schema (`ext`), so any `search_path`
 * and any schema it was installed in work. pgvector computes in single precision: scores agree with the exact
 * search to about 6 decimals.
 */
function pgvectorSearchSql(recall: string, ext: string): string {
  const vec = (expr: string) => `(${expr})::${ext}.vector`;
  const [row, asked] = [vec("embedding"), vec("$2::double precision[]")];
  // CASE tries its branches in order: `<=>` only meets two vectors of one length, neither all zeros.
  const score = `CASE WHEN array_length(embedding, 1) IS DISTINCT FROM $3 THEN 0::double precision
    WHEN ${ext}.vector_norm(${row}) = 0 OR ${ext}.vector_norm(${asked}) = 0 THEN 0::double precision
    ELSE 1 - (${row} OPERATOR(${ext}.<=>) ${asked}) END`;
  return `SELECT session_id, turn_id, text, at, ${score} AS score FROM ${recall}
    WHERE owner = $1 AND ($4::text IS NULL OR session_id <> $4)
    ORDER BY score DESC, at DESC LIMIT $5`;
}
