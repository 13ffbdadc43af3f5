import type { StoredCheckpoint } from "../types.js";

/** Postgres codes: unique and foreign-key violations. */
export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";
/** Raised by `appendStatement`'s guard: a holder took the lease the statement was taking. */
export const DIVISION_BY_ZERO = "22012";

/** PostgreSQL text cannot hold NUL: a display column gets U+FFFD instead (the journal's JSON keeps it). */
export function pgText(text: string): string {
  return text.includes("\u0000") ? text.replace(/\u0000/g, "\uFFFD") : text;
}

export function toStoredCheckpoint(row: { turn_id: string; data: string; updated_at: Date | string }): StoredCheckpoint {
  const at = row.updated_at instanceof Date ? row.updated_at.toISOString() : new Date(row.updated_at).toISOString();
  return { turnId: row.turn_id, data: row.data, updatedAt: at };
}
