import type * as Pg from "pg";
import { loadDriver } from "../load-driver.js";
import type { AcquireAndAppendOptions, ChatStore, LeasedAppend, NewJournalEntry } from "../types.js";
import type { PgPool } from "./postgres-schema.js";

interface PostgresStoreCommonOptions {
  /**
   * The schema of the store's tables, created when missing. Default: the connection's `search_path` (usually
   * `public`). Letters, digits and `_`.
   */
  schema?: string;
  /** Put before each table name. Default `"june_"` (tables `june_sessions`, `june_entries`, `june_leases`). */
  tablePrefix?: string;
  /**
   * The expiry of a turn lease taken without `ttlMs` (what chats do). The holding process renews it while it
   * holds it, so it runs out only when that process is gone (crashed, cut off). Default 60 000 (one minute).
   */
  leaseTtlMs?: number;
}

/** Where a `postgresStore` connects: a connection string (the store makes and ends its pool), or your pool. */
export type PostgresStoreOptions = PostgresStoreCommonOptions &
  (
    | {
        /** e.g. `postgres://user@host:5432/db`. Never logged or put in an error message by the store. */
        connectionString: string;
        /** The most connections the store's pool opens. Default 10 (pg's default). */
        max?: number;
        pool?: undefined;
      }
    | {
        /** A `pg.Pool` (or any pool with its `query`, `connect` and `end`): the store never ends it. */
        pool: PgPool;
        connectionString?: undefined;
        max?: undefined;
      }
  );

/** A `ChatStore` in PostgreSQL. */
export interface PostgresStore extends ChatStore {
  /** Takes the turn lease and appends in one statement (see `ChatStore.acquireTurnAndAppend`). */
  acquireTurnAndAppend(sessionId: string, entries: NewJournalEntry[], options: AcquireAndAppendOptions): Promise<LeasedAppend>;
  /** Stops renewing this store's leases and ends the pool it made from `connectionString` (not yours). */
  close(): Promise<void>;
}

/** Checks `postgresStore`'s options: a connection string or a pool (not both), and `max`. */
export function checkPostgresOptions(options: PostgresStoreOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("postgresStore: give `{ connectionString }` or `{ pool }`");
  }
  const hasUrl = options.connectionString !== undefined;
  if (hasUrl === (options.pool !== undefined)) {
    throw new TypeError("postgresStore: give either `connectionString` or `pool` (not both)");
  }
  if (hasUrl && (typeof options.connectionString !== "string" || options.connectionString === "")) {
    throw new TypeError("postgresStore: `connectionString` must be a non-empty string");
  }
  if (!hasUrl && (typeof options.pool?.query !== "function" || typeof options.pool.connect !== "function")) {
    throw new TypeError("postgresStore: `pool` must be a pg Pool (with query() and connect())");
  }
  if (options.max !== undefined && (!Number.isInteger(options.max) || options.max < 1)) {
    throw new TypeError("postgresStore: `max` must be a whole number >= 1");
  }
}

/** The pool a store makes from a connection string (`pg` loaded now: `StoreDriverMissingError` without it). */
export function createPool(connectionString: string, max: number | undefined): PgPool {
  const pg = loadDriver<typeof Pg>("pg", "postgresStore", "8");
  const pool = new pg.Pool({ connectionString, ...(max === undefined ? {} : { max }) });
  // An idle connection that breaks (a server restart) is dropped from the pool; the next query reconnects.
  // Without a listener the pool's "error" event would end the process.
  pool.on("error", () => undefined);
  return pool;
}
