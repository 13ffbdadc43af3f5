import { SessionBusyError } from "../errors.js";
import type { PreparedEntries } from "../journal-entries.js";
import { makeTitle } from "../session-listing.js";
import type { PgNames } from "./postgres-schema.js";
import { pgText } from "./postgres-values.js";

/** A lease `appendStatement` takes with the entries: its token, its owner and its ttl (null: no expiry). */
export interface TakenLease {
  token: string;
  owner: string;
  ttlMs: number | null;
}

/**
 * The one statement of an append: the session row moves on only from `expectedSeq` (a concurrent writer that
 * got there first leaves no row to update), and the entries are inserted only when it did. With `ending`, the
 * turn's lease goes in the same statement; with `deleteCheckpoint`, the turn's checkpoint; with `taking`, a new
 * lease is taken in it (`acquireTurnAndAppend`): the row moves on only when no live lease is seen, and should a
 * holder the statement's snapshot did not see win the lease row (a concurrent `acquireTurn`), the insert
 * divides by zero, so that the whole statement, the row's update included, is rolled back (`DIVISION_BY_ZERO`).
 */
export function appendStatement(
  names: PgNames,
  sessionId: string,
  expectedSeq: number,
  prepared: PreparedEntries,
  extra: { ending?: string | undefined; deleteCheckpoint?: string | undefined; taking?: TakenLease },
): { text: string; values: unknown[] } {
  const { sessions: S, entries: E, leases: L, checkpoints: C } = names;
  const written = prepared.entries;
  const last = written[written.length - 1]!;
  const firstStart = written.find((e) => e.type === "turn-start");
  // A rename in the batch wins over the stored title; otherwise a first turn names a session with none.
  const renamed = written.findLast((e) => e.type === "rename");
  const values: unknown[] = [
    sessionId,
    expectedSeq,
    last.seq,
    pgText(last.at),
    Date.parse(last.at),
    written.filter((e) => e.type === "turn-start").length,
    firstStart?.type === "turn-start" ? pgText(makeTitle(firstStart.input)) : null,
    written.map((e) => e.seq),
    written.map((e) => e.type),
    written.map((e) => pgText(e.at)),
    prepared.lines,
    renamed?.type === "rename" ? pgText(renamed.title) : null,
  ];
  const param = (value: unknown): string => `$${values.push(value)}`;
  const { ending, deleteCheckpoint, taking } = extra;
  const free = taking === undefined ? "" : ` AND NOT EXISTS (SELECT 1 FROM ${L} WHERE session_id = $1 AND expires_at > clock_timestamp())`;
  let ctes = "";
  if (taking !== undefined) {
    const ttl = param(taking.ttlMs);
    ctes += `, taken AS (
             INSERT INTO ${L} (session_id, token, owner, acquired_at, expires_at)
             SELECT id, ${param(taking.token)}, ${param(taking.owner)}, clock_timestamp(),
               CASE WHEN ${ttl}::float8 IS NULL THEN 'infinity'::timestamptz
                    ELSE clock_timestamp() + ${ttl}::float8 * interval '1 millisecond' END
             FROM s
             ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, owner = EXCLUDED.owner,
               acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
             WHERE ${L}.expires_at <= clock_timestamp()
             RETURNING session_id
           )`;
  }
  if (ending !== undefined) ctes += `, released AS (DELETE FROM ${L} WHERE session_id = $1 AND token = ${param(ending)} AND EXISTS (SELECT 1 FROM s))`;
  // The turn's checkpoint goes in the statement that journals its end.
  if (deleteCheckpoint !== undefined) ctes += `, d AS (DELETE FROM ${C} WHERE session_id = $1 AND turn_id = ${param(deleteCheckpoint)} AND EXISTS (SELECT 1 FROM s))`;
  const insert = `INSERT INTO ${E} (session_id, seq, type, at, entry)
           SELECT s.id, e.seq, e.type, e.at, e.entry::json
           FROM s, unnest($8::int[], $9::text[], $10::text[], $11::text[]) AS e(seq, type, at, entry)`;
  const update = `WITH s AS (
             UPDATE ${S} SET last_seq = $3, updated_at = $4, updated_ms = $5, touched = nextval('${names.touched}'),
               turn_count = turn_count + $6, title = COALESCE($12::text, title, $7)
             WHERE id = $1 AND last_seq = $2${free}
             RETURNING id
           )${ctes}`;
  if (taking === undefined) return { text: `${update}\n           ${insert}`, values };
  // 1 / 0 only when the row moved on and the lease was not taken (s has a row, taken none). The statement
  // returns how many entries it wrote and, as they were when it began, the journal's seq and the lease's
  // holder: why it wrote nothing, in the usual cases, with no second statement.
  const text = `${update}, ins AS (
           ${insert}
           WHERE 1 / ((SELECT count(*) FROM taken) - (SELECT count(*) FROM s) + 1) = 1
           RETURNING 1
           )
           SELECT (SELECT count(*) FROM ins)::int AS written, ${LEASE_STATE_COLUMNS}
           ${LEASE_STATE_FROM(S, L)}`;
  return { text, values };
}

/** The journal's seq and the live lease's holder (owner, expiry), of `LEASE_STATE_FROM`'s session `$1`. */
export const LEASE_STATE_COLUMNS = `x.last_seq, l.owner, CASE WHEN l.expires_at = 'infinity' THEN NULL
             ELSE to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS until`;
export const LEASE_STATE_FROM = (S: string, L: string) =>
  `FROM ${S} x LEFT JOIN ${L} l ON l.session_id = x.id AND l.expires_at > clock_timestamp() WHERE x.id = $1`;

/** A session's seq and the holder of its live lease, as `LEASE_STATE_COLUMNS` reads them. */
export interface LeaseStateRow {
  last_seq: number;
  owner: string | null;
  until: string | null;
}

/** The `SessionBusyError` naming a live lease's holder, or undefined when none holds it. */
export function busyOf(sessionId: string, row: LeaseStateRow): SessionBusyError | undefined {
  if (row.owner === null) return undefined;
  const until = row.until === null ? "" : ` until ${row.until}`;
  return new SessionBusyError(sessionId, undefined, { holder: `its lease is held by ${row.owner}${until}` });
}
