import { randomUUID } from "node:crypto";
import { memoryMethodsOf } from "../memory-records.js";
import { hostname } from "node:os";
import { ConflictError, SessionBusyError, SessionNotFoundError, StoreClosedError, assertSessionId } from "../errors.js";
import { prepareSessionEntry } from "../journal-entries.js";
import { brandStore } from "../journal-open.js";
import { decodeStoredEntries } from "../journal-shape.js";
import { KnownTurns } from "../known-turns.js";
import { LeaseKeeper, checkLeaseTtl } from "../lease-keeper.js";
import { checkListOptions, startListing, toSessionInfo } from "../session-listing.js";
import { checkFromSeq, checkTtl, conflict } from "../store-helpers.js";
import { checkAppend } from "../append-checks.js";
import type {
  AcquireAndAppendOptions,
  AppendOptions,
  CreateSessionOptions,
  JournalEntry,
  LeasedAppend,
  ListSessionsOptions,
  NewJournalEntry,
  SessionInfo,
  TurnLease,
} from "../types.js";
import { ensureSchema, pgNames } from "./postgres-schema.js";
import { DEFAULT_LEASE_TTL_MS, rowListing, type SessionRow } from "../sql-session-row.js";
import { LEASE_STATE_COLUMNS, LEASE_STATE_FROM, appendStatement, busyOf, type LeaseStateRow } from "./postgres-append.js";
import { checkPostgresOptions, createPool, type PostgresStore, type PostgresStoreOptions } from "./postgres-options.js";
import { postgresCheckpoints } from "./postgres-checkpoints.js";
import { postgresFiles } from "./postgres-files.js";
import { postgresMemory } from "./postgres-memory.js";
import { DIVISION_BY_ZERO, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, pgText } from "./postgres-values.js";
import { hasCode } from "../error-code.js";

export type { PostgresStore, PostgresStoreOptions } from "./postgres-options.js";

const SESSION_COLUMNS = "id, created_at, updated_at, title, turn_count, owner, metadata::text AS metadata, last_seq";

/**
 * A store in PostgreSQL (`pg`): for several processes or machines sharing sessions, e.g. `june/server`
 * processes behind a load balancer. Creates its schema and tables on first use (several processes may
 * start at once: an advisory lock orders them). Each append is one statement that moves the session's
 * `last_seq` only if it is still the `expectedSeq` (`ConflictError` otherwise) and inserts the entries under
 * a primary key `(session_id, seq)`, so concurrent writers can never interleave a journal. Turn leases are
 * rows with an expiry on the server's clock: `SessionBusyError` holds across machines, and a lease left by
 * a crashed process is taken over once it expires. A turn's lease and its `turn-start` can be one statement
 * (`acquireTurnAndAppend`), its `turn-end` and the lease's release another (`endsLease`): a model-chat turn
 * with `fullContext` makes two round trips. `read` checks every row it returns (a damaged one is a
 * `JournalCorruptError` naming the table and the line).
 *
 * `pg` (8.x) is an optional peer dependency, loaded when a store is made from a connection string:
 * importing this module works without it, `postgresStore({ connectionString })` then throws
 * `StoreDriverMissingError` naming the package.
 *
 * @example
 * import { createChat } from "june/chat";
 * import { postgresStore } from "june/chat";
 *
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL! });
 * const chat = createChat({ model, store });
 * // ... and at shutdown (ends the pool the store made):
 * await store.close();
 * @example
 * // Your own pool, tables in their own schema:
 * const store = postgresStore({ pool: new pg.Pool(), schema: "chat" });
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  checkPostgresOptions(options);
  const tablePrefix = options.tablePrefix ?? "june_";
  const names = pgNames(options.schema, tablePrefix);
  const leaseTtlMs = checkLeaseTtl("postgresStore", options.leaseTtlMs, DEFAULT_LEASE_TTL_MS);
  const pool = options.pool ?? createPool(options.connectionString!, options.max);
  const ownsPool = options.pool === undefined;
  const owner = `${hostname()} pid ${process.pid}`;
  const keeper = new LeaseKeeper();
  const known = new KnownTurns();
  /** Tokens of leases an append released with a turn's end (`endsLease`), until `releaseTurn` comes for them. */
  const releasedWithAppend = new Set<string>();
  const { sessions: S, entries: E, leases: L } = names;
  let init: Promise<void> | undefined;
  let closed = false;
  let ended: Promise<void> | undefined;

  function ready(): Promise<void> {
    if (closed) return Promise.reject(new StoreClosedError("postgresStore"));
    init ??= ensureSchema(pool, options.schema, tablePrefix, names).catch((error: unknown) => {
      init = undefined; // try again on the next call
      throw error;
    });
    return init;
  }

  const checkpoints = postgresCheckpoints(pool, names, ready);
  const files = postgresFiles(pool, names, ready);
  const memory = postgresMemory(pool, names, ready);

  async function sessionRow(id: string): Promise<SessionRow | undefined> {
    const { rows } = await pool.query(`SELECT ${SESSION_COLUMNS} FROM ${S} WHERE id = $1`, [id]);
    return rows[0] as SessionRow | undefined;
  }

  const store: Omit<PostgresStore, "acquireTurnAndAppend"> = {
    async createSession(input: CreateSessionOptions): Promise<SessionInfo> {
      const id = input?.id;
      assertSessionId(id);
      const { entries, lines } = prepareSessionEntry(id, input.metadata, new Date(), input.owner);
      const listing = startListing(entries[0]);
      await ready();
      const at = pgText(listing.createdAt);
      const result = await pool
        .query(
          `WITH s AS (
             INSERT INTO ${S} (id, created_at, updated_at, updated_ms, touched, title, turn_count, last_seq, metadata, owner)
             VALUES ($1, $2, $2, $3, nextval('${names.touched}'), NULL, 0, 1, $4::json, $6)
             ON CONFLICT (id) DO NOTHING RETURNING id
           )
           INSERT INTO ${E} (session_id, seq, type, at, entry) SELECT id, 1, 'session', $2, $5::json FROM s`,
          [
            id,
            at,
            Date.parse(listing.createdAt),
            listing.metadata === undefined ? null : JSON.stringify(listing.metadata),
            lines[0],
            listing.owner ?? null,
          ],
        )
        .catch((error: unknown) => {
          throw hasCode(error, UNIQUE_VIOLATION) ? new ConflictError(id, `Session "${id}" exists already`) : error;
        });
      if (result.rowCount !== 1) throw new ConflictError(id, `Session "${id}" exists already`);
      return toSessionInfo(id, listing);
    },

    async getSession(id: string): Promise<SessionInfo | undefined> {
      assertSessionId(id);
      await ready();
      const row = await sessionRow(id);
      return row && toSessionInfo(id, rowListing(row));
    },

    async listSessions(opts?: ListSessionsOptions): Promise<SessionInfo[]> {
      const { limit, before, owner } = checkListOptions(opts);
      await ready();
      if (limit === 0) return [];
      const values: unknown[] = [limit === Infinity ? null : limit];
      const where: string[] = [];
      if (before !== Infinity) where.push(`updated_ms < $${values.push(before)}`);
      // One owner's sessions come from the owner index, in its order.
      if (owner !== undefined) where.push(`owner = $${values.push(owner)}`);
      const { rows } = await pool.query(
        `SELECT ${SESSION_COLUMNS} FROM ${S} ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
         ORDER BY updated_ms DESC, touched DESC LIMIT $1`,
        values,
      );
      return (rows as SessionRow[]).map((row) => toSessionInfo(row.id, rowListing(row)));
    },

    async deleteSession(id: string): Promise<boolean> {
      assertSessionId(id);
      await ready();
      known.forget(id);
      // Entries and lease go with the session (ON DELETE CASCADE).
      const { rowCount } = await pool.query(`DELETE FROM ${S} WHERE id = $1`, [id]);
      await memory.forgetSession(id);
      return (rowCount ?? 0) > 0;
    },

    async append(sessionId: string, entries: NewJournalEntry[], opts: AppendOptions): Promise<JournalEntry[]> {
      const { expectedSeq, prepared, deleteCheckpoint } = checkAppend(sessionId, entries, opts);
      if (deleteCheckpoint !== undefined) await checkpoints.ready();
      else await ready();
      const linked = known.check(sessionId, prepared.entries, () => startedTurns(sessionId));
      if (linked) await linked;
      const written = prepared.entries;
      if (written.length === 0) {
        const reason = await whyNot(sessionId, expectedSeq);
        if (reason) throw reason;
        return [];
      }
      // A turn's end releases its lease in the same statement (one round trip fewer per turn).
      const ending = opts.endsLease?.sessionId === sessionId && typeof opts.endsLease.token === "string" ? opts.endsLease.token : undefined;
      const statement = appendStatement(names, sessionId, expectedSeq, prepared, { ending, deleteCheckpoint });
      const result = await pool.query(statement.text, statement.values).catch(async (error: unknown) => {
        if (hasCode(error, UNIQUE_VIOLATION)) throw await appendFailure(sessionId, expectedSeq);
        if (hasCode(error, FOREIGN_KEY_VIOLATION)) throw new SessionNotFoundError(sessionId);
        throw error;
      });
      if (result.rowCount === written.length) {
        known.learn(sessionId, written);
        if (ending !== undefined) {
          keeper.stop(ending);
          releasedWithAppend.add(ending);
        }
        return written;
      }
      throw await appendFailure(sessionId, expectedSeq);
    },

    async read(sessionId: string, opts?: { fromSeq?: number }): Promise<JournalEntry[]> {
      assertSessionId(sessionId);
      const fromSeq = checkFromSeq(opts?.fromSeq);
      await ready();
      // One statement, one snapshot: no row is no session, a row with no entry is an empty read.
      const { rows } = await pool.query(
        `SELECT e.entry::text AS entry FROM ${S} s LEFT JOIN ${E} e ON e.session_id = s.id AND e.seq >= $2
         WHERE s.id = $1 ORDER BY e.seq`,
        [sessionId, fromSeq],
      );
      if (rows.length === 0) throw new SessionNotFoundError(sessionId);
      const texts = (rows as { entry: string | null }[]).flatMap((row) => (row.entry === null ? [] : [row.entry]));
      const read = decodeStoredEntries(texts, { sessionId, fromSeq, location: `the PostgreSQL table ${E}` });
      known.learn(sessionId, read);
      return read;
    },

    putFile: files.putFile,
    ...memoryMethodsOf(memory),
    getFile: files.getFile,
    putCheckpoint: checkpoints.putCheckpoint,
    getCheckpoint: checkpoints.getCheckpoint,
    listCheckpoints: checkpoints.listCheckpoints,
    deleteCheckpoint: checkpoints.deleteCheckpoint,

    async acquireTurn(sessionId: string, opts?: { ttlMs?: number }): Promise<TurnLease> {
      assertSessionId(sessionId);
      const explicit = opts?.ttlMs === undefined ? undefined : checkTtl(opts.ttlMs);
      const ttlMs = explicit ?? leaseTtlMs;
      await ready();
      const token = randomUUID();
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await pool
          .query(
            `INSERT INTO ${L} (session_id, token, owner, acquired_at, expires_at)
             SELECT id, $2, $3, clock_timestamp(),
               CASE WHEN $4::float8 IS NULL THEN 'infinity'::timestamptz
                    ELSE clock_timestamp() + $4::float8 * interval '1 millisecond' END
             FROM ${S} WHERE id = $1
             ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, owner = EXCLUDED.owner,
               acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
             WHERE ${L}.expires_at <= clock_timestamp()
             RETURNING token`,
            [sessionId, token, owner, Number.isFinite(ttlMs) ? ttlMs : null],
          )
          .catch((error: unknown) => {
            throw hasCode(error, FOREIGN_KEY_VIOLATION) ? new SessionNotFoundError(sessionId) : error;
          });
        if (result.rowCount === 1) {
          if (explicit === undefined) keeper.keep(token, leaseTtlMs, () => renew(sessionId, token));
          return Object.freeze({ sessionId, token });
        }
        const busy = busyOf(sessionId, await leaseState(sessionId));
        // Released (or expired) between the two statements: try again.
        if (busy) throw busy;
      }
      throw new SessionBusyError(sessionId, "its lease is being taken and released by others");
    },

    async releaseTurn(lease: TurnLease): Promise<void> {
      assertSessionId(lease?.sessionId);
      keeper.stop(lease.token);
      // Released already by the append that ended its turn.
      if (releasedWithAppend.delete(lease.token)) return;
      await ready();
      await pool.query(`DELETE FROM ${L} WHERE session_id = $1 AND token = $2`, [lease.sessionId, lease.token]);
    },

    async close(): Promise<void> {
      closed = true;
      keeper.stopAll();
      if (ownsPool) await (ended ??= pool.end());
    },
  };
  // Non-enumerable: a store copied by spreading with an `acquireTurn` or `append` of its own (a wrapper) takes
  // the lease and appends through them, in two calls.
  Object.defineProperty(store, "acquireTurnAndAppend", { value: acquireTurnAndAppend });
  // `read` checks every entry it returns (`decodeStoredEntries`), and `append` returns entries checked as read.
  return brandStore(store as PostgresStore, {});

  /**
   * The lease and the append in one statement (see `appendStatement`), which says why when it writes nothing
   * (the holder, the journal's seq); one more statement asks when it lost a race under way, and a statement
   * that lost to a lease released since is tried again.
   */
  async function acquireTurnAndAppend(sessionId: string, entries: NewJournalEntry[], opts: AcquireAndAppendOptions): Promise<LeasedAppend> {
    const { expectedSeq, prepared } = checkAppend(sessionId, entries, { expectedSeq: opts?.expectedSeq });
    if (prepared.entries.length === 0) {
      throw new TypeError("acquireTurnAndAppend: `entries` must hold at least one entry (acquireTurn takes a lease alone)");
    }
    const explicit = opts.ttlMs === undefined ? undefined : checkTtl(opts.ttlMs);
    const ttlMs = explicit ?? leaseTtlMs;
    await ready();
    const linked = known.check(sessionId, prepared.entries, () => startedTurns(sessionId));
    if (linked) await linked;
    const token = randomUUID();
    const taking = { token, owner, ttlMs: Number.isFinite(ttlMs) ? ttlMs : null };
    const statement = appendStatement(names, sessionId, expectedSeq, prepared, { taking });
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await pool.query(statement.text, statement.values).then(
        (result) => result.rows[0] as (LeaseStateRow & { written: number }) | undefined,
        (error: unknown) => {
          // Nothing was written: the lease was taken under the statement, or entries at those seqs appeared.
          if (hasCode(error, DIVISION_BY_ZERO) || hasCode(error, UNIQUE_VIOLATION)) return null;
          throw hasCode(error, FOREIGN_KEY_VIOLATION) ? new SessionNotFoundError(sessionId) : error;
        },
      );
      if (row === undefined) throw new SessionNotFoundError(sessionId);
      if (row !== null && row.written === prepared.entries.length) {
        if (explicit === undefined) keeper.keep(token, leaseTtlMs, () => renew(sessionId, token));
        known.learn(sessionId, prepared.entries);
        return { lease: Object.freeze({ sessionId, token }), entries: prepared.entries };
      }
      // What the statement saw when it began; else (it lost a race under way) how things are now.
      const seen = row !== null && (row.owner !== null || row.last_seq !== expectedSeq) ? row : await leaseState(sessionId);
      const busy = busyOf(sessionId, seen);
      if (busy) throw busy;
      if (seen.last_seq !== expectedSeq) throw conflict(sessionId, expectedSeq, seen.last_seq);
      // Free and at expectedSeq now: the holder released it between the two statements.
    }
    throw new SessionBusyError(sessionId, "its lease is being taken and released by others");
  }

  /** Every turn started in the session, for an append that names a turn this store has not seen. */
  async function startedTurns(sessionId: string): Promise<string[]> {
    const { rows } = await pool.query(
      `SELECT e.entry->>'turnId' AS turn FROM ${S} s LEFT JOIN ${E} e ON e.session_id = s.id AND e.type = 'turn-start' WHERE s.id = $1`,
      [sessionId],
    );
    if (rows.length === 0) throw new SessionNotFoundError(sessionId);
    return (rows as { turn: string | null }[]).flatMap((row) => (row.turn === null ? [] : [row.turn]));
  }

  /** The session's journal seq and its live lease's holder, now; `SessionNotFoundError` for an unknown session. */
  async function leaseState(sessionId: string): Promise<LeaseStateRow> {
    const { rows } = await pool.query(`SELECT ${LEASE_STATE_COLUMNS} ${LEASE_STATE_FROM(S, L)}`, [sessionId]);
    if (rows.length === 0) throw new SessionNotFoundError(sessionId);
    return rows[0] as LeaseStateRow;
  }

  /** Extends a lease this store holds; false when it is no longer ours. */
  async function renew(sessionId: string, token: string): Promise<boolean> {
    if (closed) return false;
    const { rowCount } = await pool.query(
      `UPDATE ${L} SET expires_at = clock_timestamp() + $3::float8 * interval '1 millisecond'
       WHERE session_id = $1 AND token = $2`,
      [sessionId, token, leaseTtlMs],
    );
    return rowCount === 1;
  }

  /** The error of an append that wrote nothing. */
  async function appendFailure(sessionId: string, expectedSeq: number): Promise<Error> {
    return (
      (await whyNot(sessionId, expectedSeq)) ??
      new ConflictError(sessionId, `Journal of session "${sessionId}" moved during the append: read it again`)
    );
  }

  /** Why an append wrote nothing: no session, or the journal is elsewhere; undefined when it is at `expectedSeq`. */
  async function whyNot(sessionId: string, expectedSeq: number): Promise<Error | undefined> {
    const { rows } = await pool.query(`SELECT last_seq FROM ${S} WHERE id = $1`, [sessionId]);
    if (rows.length === 0) return new SessionNotFoundError(sessionId);
    const lastSeq = (rows[0] as { last_seq: number }).last_seq;
    return lastSeq === expectedSeq ? undefined : conflict(sessionId, expectedSeq, lastSeq);
  }
}
