import { shareEventLoop } from "../event-loop-share.js";
import { memoryMethodsOf } from "../memory-records.js";
import { ConflictError, SessionBusyError, SessionNotFoundError, StoreClosedError, assertSessionId } from "../errors.js";
import { prepareSessionEntry } from "../journal-entries.js";
import { brandStore } from "../journal-open.js";
import { decodeStoredEntries } from "../journal-shape.js";
import { KnownTurns } from "../known-turns.js";
import { LeaseKeeper, checkLeaseTtl } from "../lease-keeper.js";
import { checkListOptions, foldEntry, startListing, toSessionInfo } from "../session-listing.js";
import { checkCheckpointArgs, checkFromSeq, checkTtl, conflict } from "../store-helpers.js";
import { checkAppend } from "../append-checks.js";
import type {
  AppendOptions,
  ChatStore,
  CreateSessionOptions,
  JournalEntry,
  ListSessionsOptions,
  NewJournalEntry,
  SessionInfo,
  StoredCheckpoint,
  StoredFile,
  FileRef,
  NewFile,
  TurnLease,
} from "../types.js";
import { fileIdOf, fileToKeep, keptRef, storedRef } from "../file-records.js";
import { sqliteMemory } from "./sqlite-memory.js";
import { describeHolder, isStale, newLease, type LeaseRow } from "./sqlite-leases.js";
import { LIST_SQL, clearWal, openDatabase, SESSION_COLUMNS } from "./sqlite-schema.js";
import { DEFAULT_LEASE_TTL_MS, rowListing, type SessionRow } from "../sql-session-row.js";

export interface SqliteStoreOptions {
  /** The database file, created with its folder when missing (e.g. `.june/chat.db`); `":memory:"` for a private one. */
  path: string;
  /**
   * Flush new sessions and appends made with `sync: true` (a turn's end) to disk before they resolve
   * (`PRAGMA synchronous = FULL` for those transactions, `NORMAL` otherwise). Default true.
   */
  fsync?: boolean;
  /**
   * The expiry of a turn lease taken without `ttlMs` (what chats do). This process renews it while it holds
   * it, so it only runs out when the holder is gone; a holder on this machine that died is noticed at once
   * by its pid. Default 60 000 (one minute).
   */
  leaseTtlMs?: number;
  /** How long a write waits for another process's write before failing with `SQLITE_BUSY`. Default 5000. */
  busyTimeoutMs?: number;
}

/** A `ChatStore` in a SQLite file. */
export interface SqliteStore extends ChatStore {
  /** Stops renewing this store's leases and closes the database (the WAL is checkpointed into the file). */
  close(): Promise<void>;
}



/**
 * A store that keeps every session in one SQLite file (better-sqlite3, WAL): for a single machine with many
 * sessions, shared safely by several processes. A `june_sessions` row per session (title, turn count and
 * update time kept current by each append, so `listSessions` reads one index), a `june_entries` row per
 * journal entry (`UNIQUE (session_id, seq)`), a `june_leases` row per running turn.
 *
 * Appends are one transaction that checks `expectedSeq` (`ConflictError` when the journal moved on). Turn
 * leases hold the owner's pid and an expiry: `SessionBusyError` holds across processes, and a lease left by
 * a crashed process is taken over (at once when that process was on this machine, else when it expires).
 *
 * `better-sqlite3` (12.x) is an optional peer dependency, loaded when the store is made: importing this
 * module works without it, calling `sqliteStore` then throws `StoreDriverMissingError` naming the package.
 * Calls are synchronous under the hood (a write may wait up to `busyTimeoutMs` for another process).
 *
 * @param options The database file, or `{ path, fsync?, leaseTtlMs?, busyTimeoutMs? }`.
 * @example
 * import { createChat } from "june/chat";
 * import { sqliteStore } from "june/chat";
 *
 * const store = sqliteStore(".june/chat.db");
 * const chat = createChat({ model, store });
 * // ... and when done:
 * await store.close();
 */
export function sqliteStore(options: string | SqliteStoreOptions): SqliteStore {
  const opts = typeof options === "string" ? { path: options } : options;
  if (typeof opts !== "object" || opts === null || typeof opts.path !== "string" || opts.path.trim() === "") {
    throw new TypeError("sqliteStore: give the database file as a path or `{ path }`");
  }
  if (opts.fsync !== undefined && typeof opts.fsync !== "boolean") throw new TypeError("sqliteStore: `fsync` must be a boolean");
  const busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new TypeError("sqliteStore: `busyTimeoutMs` must be a whole number of milliseconds >= 0");
  }
  const leaseTtlMs = checkLeaseTtl("sqliteStore", opts.leaseTtlMs, DEFAULT_LEASE_TTL_MS);
  const fsync = opts.fsync ?? true;
  const db = openDatabase(opts.path, busyTimeoutMs);
  const keeper = new LeaseKeeper();
  const known = new KnownTurns();
  const memory = opts.path === ":memory:";
  /**
   * A checkpoint was deleted and the WAL may still hold its bytes (`secure_delete` reaches the file only): the
   * WAL is emptied right after the delete's transaction, or (while other connections read it) at the next write.
   */
  let walHoldsDeleted = false;
  let closed = false;

  const sql = {
    session: db.prepare<[string], SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM june_sessions WHERE id = ?`,
    ),
    exists: db.prepare<[string], number>("SELECT 1 FROM june_sessions WHERE id = ?").pluck(),
    touch: db.prepare<[], number>("UPDATE june_counters SET value = value + 1 WHERE name = 'touched' RETURNING value").pluck(),
    insertSession: db.prepare(
      `INSERT INTO june_sessions (id, created_at, updated_at, updated_ms, touched, title, turn_count, last_seq, owner, metadata)
       VALUES (:id, :at, :at, :ms, :touched, NULL, 0, 1, :owner, :metadata) ON CONFLICT (id) DO NOTHING`,
    ),
    updateSession: db.prepare(
      `UPDATE june_sessions SET updated_at = :updatedAt, updated_ms = :ms, touched = :touched, title = :title,
       turn_count = :turnCount, last_seq = :lastSeq WHERE id = :id`,
    ),
    insertEntry: db.prepare<[string, number, string, string]>(
      "INSERT INTO june_entries (session_id, seq, type, entry) VALUES (?, ?, ?, ?)",
    ),
    startedTurns: db.prepare<[string], string>(
      "SELECT json_extract(entry, '$.turnId') FROM june_entries WHERE session_id = ? AND type = 'turn-start'",
    ).pluck(),
    entries: db.prepare<[string, number], string>(
      "SELECT entry FROM june_entries WHERE session_id = ? AND seq >= ? ORDER BY seq",
    ).pluck(),
    list: db.prepare<[{ limit: number }], SessionRow>(LIST_SQL.all),
    listBefore: db.prepare<[{ before: number; limit: number }], SessionRow>(LIST_SQL.before),
    listOwner: db.prepare<[{ owner: string; limit: number }], SessionRow>(LIST_SQL.owner),
    listOwnerBefore: db.prepare<[{ owner: string; before: number; limit: number }], SessionRow>(LIST_SQL.ownerBefore),
    deleteSession: db.prepare<[string]>("DELETE FROM june_sessions WHERE id = ?"),
    lease: db.prepare<[string], LeaseRow>("SELECT * FROM june_leases WHERE session_id = ?"),
    putLease: db.prepare<[LeaseRow]>(
      `INSERT OR REPLACE INTO june_leases (session_id, token, pid, host, instance, acquired_ms, expires_ms)
       VALUES (:session_id, :token, :pid, :host, :instance, :acquired_ms, :expires_ms)`,
    ),
    renewLease: db.prepare<[number, string, string]>(
      "UPDATE june_leases SET expires_ms = ? WHERE session_id = ? AND token = ?",
    ),
    deleteLease: db.prepare<[string, string]>("DELETE FROM june_leases WHERE session_id = ? AND token = ?"),
    putCheckpoint: db.prepare<[string, string, string, string]>(
      `INSERT INTO june_checkpoints (session_id, turn_id, data, updated_at, written)
       VALUES (?, ?, ?, ?, (SELECT value FROM june_counters WHERE name = 'touched'))
       ON CONFLICT (session_id, turn_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
    ),
    checkpoint: db.prepare<[string, string], { turn_id: string; data: string; updated_at: string }>(
      "SELECT turn_id, data, updated_at FROM june_checkpoints WHERE session_id = ? AND turn_id = ?",
    ),
    checkpoints: db.prepare<[string], { turn_id: string; data: string; updated_at: string }>(
      "SELECT turn_id, data, updated_at FROM june_checkpoints WHERE session_id = ? ORDER BY updated_at, written, turn_id",
    ),
    deleteCheckpoint: db.prepare<[string, string]>("DELETE FROM june_checkpoints WHERE session_id = ? AND turn_id = ?"),
    // One copy per content: the same bytes again change nothing.
    putFile: db.prepare<[string, string, string, number, Uint8Array]>(
      "INSERT INTO june_files (session_id, id, media_type, size, bytes) VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, id) DO NOTHING",
    ),
    file: db.prepare<[string, string], { media_type: string; bytes: Uint8Array }>("SELECT media_type, bytes FROM june_files WHERE session_id = ? AND id = ?"),
  };

  const toStored = (row: { turn_id: string; data: string; updated_at: string }): StoredCheckpoint => ({
    turnId: row.turn_id,
    data: row.data,
    updatedAt: row.updated_at,
  });

  function open(): void {
    if (closed) throw new StoreClosedError("sqliteStore");
  }

  /** Runs `fn` in a write transaction (taken at once, so two processes never deadlock upgrading a read). */
  function write<T>(durable: boolean, fn: () => T): T {
    open();
    const full = fsync && durable;
    if (full) db.pragma("synchronous = FULL");
    let result: T;
    try {
      result = db.transaction(fn).immediate();
    } finally {
      if (full) db.pragma("synchronous = NORMAL");
    }
    if (walHoldsDeleted && !memory) walHoldsDeleted = !clearWal(db);
    return result;
  }

  /** Every turn started in the session, for an append that names a turn this store has not seen. */
  function startedTurns(sessionId: string): string[] {
    return readTx(() => {
      const ids = sql.startedTurns.all(sessionId);
      if (ids.length === 0 && sql.exists.get(sessionId) === undefined) throw new SessionNotFoundError(sessionId);
      return ids;
    });
  }

  /** Runs `fn` in a read transaction: one consistent snapshot. */
  function readTx<T>(fn: () => T): T {
    open();
    return db.transaction(fn).deferred();
  }

  const memoryArea = sqliteMemory(db, (fn) => write(false, fn), readTx);

  const store: SqliteStore = {
    async createSession(input: CreateSessionOptions): Promise<SessionInfo> {
      const id = input?.id;
      assertSessionId(id);
      const { entries, lines } = prepareSessionEntry(id, input.metadata, new Date(), input.owner);
      const listing = startListing(entries[0]);
      write(true, () => {
        const created = sql.insertSession.run({
          id,
          at: listing.createdAt,
          ms: Date.parse(listing.createdAt),
          touched: sql.touch.get(),
          owner: listing.owner ?? null,
          metadata: listing.metadata === undefined ? null : JSON.stringify(listing.metadata),
        });
        if (created.changes === 0) throw new ConflictError(id, `Session "${id}" exists already`);
        sql.insertEntry.run(id, 1, "session", lines[0]);
      });
      return toSessionInfo(id, listing);
    },

    async getSession(id: string): Promise<SessionInfo | undefined> {
      assertSessionId(id);
      open();
      const row = sql.session.get(id);
      return row && toSessionInfo(id, rowListing(row));
    },

    async listSessions(options?: ListSessionsOptions): Promise<SessionInfo[]> {
      const { limit, before, owner } = checkListOptions(options);
      open();
      if (limit === 0) return [];
      const max = limit === Infinity ? -1 : limit;
      const rows =
        owner === undefined
          ? before === Infinity
            ? sql.list.all({ limit: max })
            : sql.listBefore.all({ before, limit: max })
          : before === Infinity
            ? sql.listOwner.all({ owner, limit: max })
            : sql.listOwnerBefore.all({ owner, before, limit: max });
      return rows.map((row) => toSessionInfo(row.id, rowListing(row)));
    },

    async deleteSession(id: string): Promise<boolean> {
      assertSessionId(id);
      known.forget(id);
      // Entries, lease and checkpoints go with the session (ON DELETE CASCADE).
      return write(false, () => {
        const deleted = sql.deleteSession.run(id).changes > 0;
        memoryArea.forgetSession(id);
        if (deleted) walHoldsDeleted = true;
        return deleted;
      });
    },

    async append(sessionId: string, entries: NewJournalEntry[], options: AppendOptions): Promise<JournalEntry[]> {
      const share = shareEventLoop();
      if (share) await share;
      const { expectedSeq, prepared, deleteCheckpoint } = checkAppend(sessionId, entries, options);
      const linked = known.check(sessionId, prepared.entries, () => startedTurns(sessionId));
      if (linked) await linked;
      write(options.sync === true, () => {
        const row = sql.session.get(sessionId);
        if (!row) throw new SessionNotFoundError(sessionId);
        if (row.last_seq !== expectedSeq) throw conflict(sessionId, expectedSeq, row.last_seq);
        // In the transaction that journals the turn's end.
        if (deleteCheckpoint !== undefined && sql.deleteCheckpoint.run(sessionId, deleteCheckpoint).changes > 0) walHoldsDeleted = true;
        if (prepared.entries.length === 0) return;
        const listing = rowListing(row);
        prepared.entries.forEach((entry, i) => {
          sql.insertEntry.run(sessionId, entry.seq, entry.type, prepared.lines[i]);
          foldEntry(listing, entry);
        });
        sql.updateSession.run({
          id: sessionId,
          updatedAt: listing.updatedAt,
          ms: Date.parse(listing.updatedAt),
          touched: sql.touch.get(),
          title: listing.title ?? null,
          turnCount: listing.turnCount,
          lastSeq: listing.lastSeq,
        });
      });
      known.learn(sessionId, prepared.entries);
      return prepared.entries;
    },

    async read(sessionId: string, options?: { fromSeq?: number }): Promise<JournalEntry[]> {
      assertSessionId(sessionId);
      const fromSeq = checkFromSeq(options?.fromSeq);
      const texts = readTx(() => {
        const found = sql.entries.all(sessionId, fromSeq);
        if (found.length === 0 && sql.exists.get(sessionId) === undefined) throw new SessionNotFoundError(sessionId);
        return found;
      });
      const read = decodeStoredEntries(texts, { sessionId, fromSeq, location: `the SQLite database ${opts.path}` });
      known.learn(sessionId, read);
      return read;
    },

    ...memoryMethodsOf(memoryArea),

    async putFile(sessionId: string, file: NewFile): Promise<FileRef> {
      const kept = fileToKeep(sessionId, file);
      write(true, () => {
        if (sql.exists.get(sessionId) === undefined) throw new SessionNotFoundError(sessionId);
        sql.putFile.run(sessionId, kept.id, kept.mediaType, kept.size, kept.bytes);
      });
      return keptRef(kept);
    },

    async getFile(sessionId: string, fileId: string): Promise<StoredFile | undefined> {
      const id = fileIdOf(sessionId, fileId);
      if (id === undefined) return undefined;
      open();
      const row = sql.file.get(sessionId, id);
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      return { ref: storedRef(id, row.media_type, bytes.byteLength), bytes };
    },

    async putCheckpoint(sessionId: string, turnId: string, data: string): Promise<void> {
      checkCheckpointArgs("putCheckpoint", sessionId, turnId, data);
      write(true, () => {
        if (sql.exists.get(sessionId) === undefined) throw new SessionNotFoundError(sessionId);
        sql.putCheckpoint.run(sessionId, turnId, data, new Date().toISOString());
      });
    },

    async getCheckpoint(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined> {
      checkCheckpointArgs("getCheckpoint", sessionId, turnId);
      open();
      const row = sql.checkpoint.get(sessionId, turnId);
      return row && toStored(row);
    },

    async listCheckpoints(sessionId: string): Promise<StoredCheckpoint[]> {
      assertSessionId(sessionId);
      open();
      return sql.checkpoints.all(sessionId).map(toStored);
    },

    async deleteCheckpoint(sessionId: string, turnId: string): Promise<boolean> {
      checkCheckpointArgs("deleteCheckpoint", sessionId, turnId);
      return write(false, () => {
        const deleted = sql.deleteCheckpoint.run(sessionId, turnId).changes > 0;
        if (deleted) walHoldsDeleted = true;
        return deleted;
      });
    },

    async acquireTurn(sessionId: string, options?: { ttlMs?: number }): Promise<TurnLease> {
      assertSessionId(sessionId);
      const explicit = options?.ttlMs === undefined ? undefined : checkTtl(options.ttlMs);
      const lease = write(false, () => {
        if (sql.exists.get(sessionId) === undefined) throw new SessionNotFoundError(sessionId);
        const now = Date.now();
        const held = sql.lease.get(sessionId);
        if (held && !isStale(held, now)) throw new SessionBusyError(sessionId, undefined, { holder: describeHolder(held) });
        const row = newLease(sessionId, now, explicit ?? leaseTtlMs);
        sql.putLease.run(row);
        return row;
      });
      if (explicit === undefined) {
        keeper.keep(lease.token, leaseTtlMs, () => {
          if (closed) return false;
          return sql.renewLease.run(Date.now() + leaseTtlMs, sessionId, lease.token).changes > 0;
        });
      }
      return Object.freeze({ sessionId, token: lease.token });
    },

    async releaseTurn(lease: TurnLease): Promise<void> {
      assertSessionId(lease?.sessionId);
      keeper.stop(lease.token);
      write(false, () => sql.deleteLease.run(lease.sessionId, lease.token));
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      keeper.stopAll();
      db.close();
    },
  };
  // `read` checks every entry it returns (`decodeStoredEntries`), and `append` returns entries checked as read.
  return brandStore(store, {});
}

