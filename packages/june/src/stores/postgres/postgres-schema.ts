/** A query result as `pg` returns it. */
export interface PgResult<Row = Record<string, unknown>> {
  rows: Row[];
  rowCount: number | null;
}

/** What the store needs of a `pg` client: `pg.Client` and `pg.PoolClient` have it. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<PgResult<any>>;
}

/** What the store needs of a `pg.Pool` (any pool with the same methods will do). */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgQueryable & { release(error?: Error | boolean): void }>;
  end(): Promise<void>;
}

/** The store's table, sequence and index names, quoted and schema-qualified. */
export interface PgNames {
  sessions: string;
  entries: string;
  leases: string;
  checkpoints: string;
  /** The turn files' table (`<prefix>files`), made on first use. */
  files: string;
  /** The working memory versions' table (`<prefix>memory`) and the recall index's (`<prefix>recall`), made on first use. */
  memory: string;
  recall: string;
  /** The sequence that orders sessions updated in the same millisecond. */
  touched: string;
  /** What the names are made of, for the advisory lock and messages. */
  label: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names of a store's objects, from its `schema` and `tablePrefix` options (checked here). */
export function pgNames(schema: string | undefined, tablePrefix: string): PgNames {
  if (schema !== undefined && (typeof schema !== "string" || !IDENTIFIER.test(schema) || schema.length > 63)) {
    throw new TypeError("postgresStore: `schema` must be 1 to 63 letters, digits or _ (not starting with a digit)");
  }
  if (typeof tablePrefix !== "string" || !(tablePrefix === "" || IDENTIFIER.test(tablePrefix)) || tablePrefix.length > 40) {
    throw new TypeError("postgresStore: `tablePrefix` must be up to 40 letters, digits or _ (not starting with a digit)");
  }
  const qualify = (name: string) => (schema === undefined ? `"${name}"` : `"${schema}"."${name}"`);
  return {
    sessions: qualify(`${tablePrefix}sessions`),
    entries: qualify(`${tablePrefix}entries`),
    leases: qualify(`${tablePrefix}leases`),
    checkpoints: qualify(`${tablePrefix}checkpoints`),
    files: qualify(`${tablePrefix}files`),
    memory: qualify(`${tablePrefix}memory`),
    recall: qualify(`${tablePrefix}recall`),
    touched: qualify(`${tablePrefix}touched`),
    label: `${schema ?? ""}.${tablePrefix}`,
  };
}

/**
 * The store's tables. One row per session, kept current by every append in the same statement (title, turn
 * count, update time), so listing reads one index (one owner's sessions: the owner index). Entries keep their JSON text exactly (`json`, not
 * `jsonb`: key order and every character as written). Leases expire on the server's clock.
 */
function schemaSql(schema: string | undefined, tablePrefix: string, names: PgNames): string {
  return `
${schema === undefined ? "" : `CREATE SCHEMA IF NOT EXISTS "${schema}";`}
CREATE TABLE IF NOT EXISTS ${names.sessions} (
  id text PRIMARY KEY,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  updated_ms bigint NOT NULL,
  touched bigint NOT NULL,
  title text,
  turn_count integer NOT NULL DEFAULT 0,
  last_seq integer NOT NULL,
  metadata json,
  owner text
);
CREATE INDEX IF NOT EXISTS "${tablePrefix}sessions_by_update" ON ${names.sessions} (updated_ms DESC, touched DESC);
CREATE SEQUENCE IF NOT EXISTS ${names.touched};
CREATE TABLE IF NOT EXISTS ${names.entries} (
  session_id text NOT NULL REFERENCES ${names.sessions} (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  type text NOT NULL,
  at text NOT NULL,
  entry json NOT NULL,
  PRIMARY KEY (session_id, seq)
);
${ownerMigration(names)}
CREATE INDEX IF NOT EXISTS "${tablePrefix}sessions_by_owner" ON ${names.sessions} (owner, updated_ms DESC, touched DESC);
CREATE TABLE IF NOT EXISTS ${names.leases} (
  session_id text PRIMARY KEY REFERENCES ${names.sessions} (id) ON DELETE CASCADE,
  token text NOT NULL,
  owner text NOT NULL,
  acquired_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
`;
}

/**
 * Brings a sessions table made before sessions had owners up to date: the `owner` column, filled from each
 * session's `session` entry (where the owner is journaled). A no-op where the column is there already.
 */
function ownerMigration(names: PgNames): string {
  const table = names.sessions.replaceAll("'", "''");
  return `DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attname = 'owner' AND NOT attisdropped) THEN
    ALTER TABLE ${names.sessions} ADD COLUMN owner text;
    UPDATE ${names.sessions} s SET owner = e.entry->>'owner' FROM ${names.entries} e
      WHERE e.session_id = s.id AND e.seq = 1 AND e.entry->>'owner' IS NOT NULL;
  END IF;
END $$;`;
}

/** The first key of the advisory lock that guards schema creation ("june" in ASCII). */
const LOCK_CLASS = 0x6a756e65;

/**
 * Creates the store's schema and tables when missing. Several processes may start at once: each takes a
 * transaction-scoped advisory lock first (released at commit or rollback), so only one creates at a time
 * and the others find everything in place (`CREATE SCHEMA IF NOT EXISTS` alone races).
 */
export async function ensureSchema(pool: PgPool, schema: string | undefined, tablePrefix: string, names: PgNames): Promise<void> {
  await underSchemaLock(pool, names, schemaSql(schema, tablePrefix, names));
}

/**
 * Creates the checkpoints table of durable turns when missing, on the store's first checkpoint call (a chat
 * with no durable turn never has it). One row per unfinished durable turn, deleted with its session.
 */
export async function ensureCheckpointTable(pool: PgPool, names: PgNames): Promise<void> {
  await underSchemaLock(
    pool,
    names,
    `CREATE TABLE IF NOT EXISTS ${names.checkpoints} (
  session_id text NOT NULL REFERENCES ${names.sessions} (id) ON DELETE CASCADE,
  turn_id text NOT NULL,
  data text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (session_id, turn_id)
);`,
  );
}

/**
 * Creates the table of turn files when missing, on the store's first file call (a chat whose turns send no
 * file never has it): one row per distinct content in a session, deleted with its session.
 */
export async function ensureFileTable(pool: PgPool, names: PgNames): Promise<void> {
  await underSchemaLock(
    pool,
    names,
    `CREATE TABLE IF NOT EXISTS ${names.files} (
  session_id text NOT NULL REFERENCES ${names.sessions} (id) ON DELETE CASCADE,
  id text NOT NULL,
  media_type text NOT NULL,
  size integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (session_id, id)
);`,
  );
}

/** The memory area's tables (see `postgresMemory`), made on first use. Embeddings are `double precision[]`. */
export async function ensureMemoryTables(pool: PgPool, names: PgNames): Promise<void> {
  const index = names.recall.replace(/"([^"]*)"$/, (_, name: string) => `"${name}_by_owner"`);
  await underSchemaLock(
    pool,
    names,
    `CREATE TABLE IF NOT EXISTS ${names.memory} (
  scope text NOT NULL,
  key_id text NOT NULL,
  version integer NOT NULL,
  text text NOT NULL,
  at text NOT NULL,
  session_id text,
  turn_id text,
  PRIMARY KEY (scope, key_id, version)
);
CREATE TABLE IF NOT EXISTS ${names.recall} (
  session_id text NOT NULL,
  turn_id text NOT NULL,
  owner text NOT NULL,
  text text NOT NULL,
  content_hash text NOT NULL,
  embedding double precision[] NOT NULL,
  at text NOT NULL,
  PRIMARY KEY (session_id, turn_id)
);
CREATE INDEX IF NOT EXISTS ${index.includes(".") ? index.slice(index.lastIndexOf(".") + 1) : index} ON ${names.recall} (owner);`,
  );
}

async function underSchemaLock(pool: PgPool, names: PgNames, sql: string): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_CLASS, hash32(names.label)]);
      await client.query(sql);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch((e: Error) => {
        broken = e;
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/** FNV-1a, as a signed 32-bit integer (an advisory lock key). */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** A table made on first use (`make`): one promise for every call, made again on the next call after a failure. */
export function madeOnce(make: () => Promise<void>): () => Promise<void> {
  let made: Promise<void> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
