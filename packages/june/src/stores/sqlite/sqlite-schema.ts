import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { StoreDriverMissingError, StoreOpenError } from "../errors.js";
import { loadDriver } from "../load-driver.js";

/** A better-sqlite3 connection. */
export type SqliteDatabase = BetterSqlite3.Database;

/**
 * The schema version this code writes (`PRAGMA user_version`). 2: sessions have an `owner` (and an index on
 * it); a version 1 database is migrated when opened (see `migrate`).
 */
export const SCHEMA_VERSION = 2;

/**
 * One row per session, kept up to date by every append (in the append's transaction), so that
 * `listSessions` and `getSession` never read a journal. `updated_ms` orders the listing; `touched` (a
 * counter) breaks ties between sessions updated in the same millisecond, last written first.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS june_sessions (
  id TEXT PRIMARY KEY NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_ms INTEGER NOT NULL,
  touched INTEGER NOT NULL,
  title TEXT,
  turn_count INTEGER NOT NULL DEFAULT 0,
  last_seq INTEGER NOT NULL,
  metadata TEXT,
  owner TEXT
);
CREATE INDEX IF NOT EXISTS june_sessions_by_update ON june_sessions (updated_ms DESC, touched DESC);
CREATE TABLE IF NOT EXISTS june_entries (
  session_id TEXT NOT NULL REFERENCES june_sessions (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  entry TEXT NOT NULL,
  UNIQUE (session_id, seq)
);
CREATE TABLE IF NOT EXISTS june_leases (
  session_id TEXT PRIMARY KEY NOT NULL REFERENCES june_sessions (id) ON DELETE CASCADE,
  token TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  instance TEXT NOT NULL,
  acquired_ms INTEGER NOT NULL,
  expires_ms INTEGER
);
CREATE TABLE IF NOT EXISTS june_checkpoints (
  session_id TEXT NOT NULL REFERENCES june_sessions (id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  data TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  written INTEGER NOT NULL,
  PRIMARY KEY (session_id, turn_id)
);
CREATE TABLE IF NOT EXISTS june_files (
  session_id TEXT NOT NULL REFERENCES june_sessions (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  media_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (session_id, id)
);
CREATE TABLE IF NOT EXISTS june_memory (
  scope TEXT NOT NULL,
  key_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  text TEXT NOT NULL,
  at TEXT NOT NULL,
  session_id TEXT,
  turn_id TEXT,
  PRIMARY KEY (scope, key_id, version)
);
CREATE TABLE IF NOT EXISTS june_recall (
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  owner TEXT NOT NULL,
  text TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  embedding BLOB NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (session_id, turn_id)
);
CREATE INDEX IF NOT EXISTS june_recall_by_owner ON june_recall (owner);
CREATE TABLE IF NOT EXISTS june_counters (
  name TEXT PRIMARY KEY NOT NULL,
  value INTEGER NOT NULL
);
INSERT INTO june_counters (name, value) VALUES ('touched', 0) ON CONFLICT (name) DO NOTHING;
`;

/**
 * One owner's sessions in listing order: `listSessions({ owner })` reads this index, never the other owners' rows.
 * Made after the migration (a version 1 table has no `owner` column until then).
 */
const OWNER_INDEX = "CREATE INDEX IF NOT EXISTS june_sessions_by_owner ON june_sessions (owner, updated_ms DESC, touched DESC)";

/** The columns a `SessionRow` is read from. */
export const SESSION_COLUMNS = "id, created_at, updated_at, title, turn_count, owner, metadata, last_seq";

/**
 * The listing query (newest first), with and without `before`, for every owner or one; `limit` -1 is no
 * limit. Keyed `${owner}${before}`, as `listQuery` picks them.
 */
export const LIST_SQL = {
  all: `SELECT ${SESSION_COLUMNS} FROM june_sessions ORDER BY updated_ms DESC, touched DESC LIMIT :limit`,
  before: `SELECT ${SESSION_COLUMNS} FROM june_sessions
  WHERE updated_ms < :before ORDER BY updated_ms DESC, touched DESC LIMIT :limit`,
  owner: `SELECT ${SESSION_COLUMNS} FROM june_sessions
  WHERE owner = :owner ORDER BY updated_ms DESC, touched DESC LIMIT :limit`,
  ownerBefore: `SELECT ${SESSION_COLUMNS} FROM june_sessions
  WHERE owner = :owner AND updated_ms < :before ORDER BY updated_ms DESC, touched DESC LIMIT :limit`,
} as const;

/** Opens (creating when missing) a June database: WAL, foreign keys on, the schema in place. */
export function openDatabase(path: string, busyTimeoutMs: number): SqliteDatabase {
  const Database = loadDriver<typeof BetterSqlite3>("better-sqlite3", "sqliteStore", "12");
  const memory = path === ":memory:";
  if (!memory) {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    readableByOwnerOnly(path);
  }
  let db: SqliteDatabase;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw notBuilt(error) ?? error;
  }
  try {
    if (!memory) {
      const mode = db.pragma("journal_mode = WAL", { simple: true });
      if (mode !== "wal") throw new StoreOpenError({ store: "sqliteStore", path, detail: `cannot use WAL (journal_mode is ${String(mode)})` });
    }
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    // Deleted rows are overwritten, not left in free pages: a durable turn's checkpoint (tool inputs) is gone
    // from the file once the turn ends.
    db.pragma("secure_delete = ON");
    // A WAL left by a crash may still hold a deleted checkpoint: into the file (zeroed there) and emptied.
    if (!memory && (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0) clearWal(db);
    db.transaction(() => {
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version > SCHEMA_VERSION) {
        throw new StoreOpenError({
          store: "sqliteStore",
          path,
          detail: `has schema version ${version}, newer than this June's ${SCHEMA_VERSION}: upgrade june`,
        });
      }
      db.exec(SCHEMA);
      migrate(db);
      db.exec(OWNER_INDEX);
      if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }).immediate();
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The database file (and so its `-wal` and `-shm`, which SQLite creates with the file's mode) readable by its
 * owner only (0600): it holds durable turns' checkpoints. Created so when missing; an existing one is made so
 * when this process may.
 */
function readableByOwnerOnly(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch {
      // Missing (no WAL yet), or another user's file: left as it is.
    }
  }
}

/**
 * Checkpoints the WAL into the file and empties it (`wal_checkpoint(TRUNCATE)`): what a deleted row held is
 * then only in the file, where `secure_delete` zeroed it. False when readers of other connections kept part of
 * the WAL (after the busy timeout): the caller tries again later.
 */
export function clearWal(db: SqliteDatabase): boolean {
  const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
  return result?.busy === 0;
}

/**
 * Brings a version 1 table up to this schema: the `owner` column, filled from each session's `session` entry
 * (where the owner is journaled). A no-op on a table that has it (a new database, or one migrated already).
 */
function migrate(db: SqliteDatabase): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('june_sessions')").pluck().all() as string[];
  if (columns.includes("owner")) return;
  db.exec(`ALTER TABLE june_sessions ADD COLUMN owner TEXT;
UPDATE june_sessions SET owner = (
  SELECT json_extract(entry, '$.owner') FROM june_entries WHERE session_id = june_sessions.id AND seq = 1
);`);
}

/** better-sqlite3 is installed but its native addon is missing or built for another Node.js. */
function notBuilt(error: unknown): StoreDriverMissingError | undefined {
  const message = error instanceof Error ? error.message : "";
  if (!/Could not locate the bindings file|NODE_MODULE_VERSION|compiled against a different Node\.js/.test(message)) {
    return undefined;
  }
  return new StoreDriverMissingError(
    "better-sqlite3",
    "sqliteStore: better-sqlite3 is installed but its native addon is not built for this Node.js: run " +
      "`npm rebuild better-sqlite3` (its install script must be allowed: `npm install-scripts approve better-sqlite3`)",
    { cause: error },
  );
}
