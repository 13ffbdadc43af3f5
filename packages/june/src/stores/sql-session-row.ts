import type { SessionListing } from "./session-listing.js";

/** A `sessions` row as the SQL stores (SQLite, PostgreSQL) read it. */
export interface SessionRow {
  id: string;
  created_at: string;
  updated_at: string;
  title: string | null;
  turn_count: number;
  owner: string | null;
  metadata: string | null;
  last_seq: number;
}

/** How long a SQL store's turn lease lasts when the caller sets no `ttlMs`; renewed while it is held. */
export const DEFAULT_LEASE_TTL_MS = 60_000;

/** A row as the listing `listSessions` and `getSession` are made from. */
export function rowListing(row: SessionRow): SessionListing {
  const listing: SessionListing = {
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    turnCount: row.turn_count,
    lastSeq: row.last_seq,
  };
  if (row.title !== null) listing.title = row.title;
  if (row.owner !== null) listing.owner = row.owner;
  if (row.metadata !== null) listing.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  return listing;
}
