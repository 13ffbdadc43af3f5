import { assertSessionId, isSessionId } from "./errors.js";
import { prepareEntries, type PreparedEntries } from "./journal-entries.js";
import type { AppendOptions, NewJournalEntry } from "./types.js";

/** An append's arguments as every store checks them before it touches what it keeps (`checkAppend`). */
export interface CheckedAppend {
  /** The `seq` of the last entry the writer has seen. */
  expectedSeq: number;
  /** The entries, checked and numbered from `expectedSeq + 1`, stamped now, with their journal lines. */
  prepared: PreparedEntries;
  /** The turn whose checkpoint goes with the append, if any. */
  deleteCheckpoint: string | undefined;
}

/**
 * The checks every store's `append` (and `acquireTurnAndAppend`) makes first, in this order: a safe session id
 * (`InvalidSessionIdError`), the entries and `expectedSeq` (`prepareEntries`), the `deleteCheckpoint` option.
 * Throws before anything is read or written. `lines: false`: a store that keeps no journal text (no JSON lines made).
 */
export function checkAppend(
  sessionId: unknown,
  entries: readonly NewJournalEntry[],
  options: Pick<AppendOptions, "expectedSeq" | "deleteCheckpoint"> | undefined,
  { lines = true }: { lines?: boolean } = {},
): CheckedAppend {
  assertSessionId(sessionId);
  const expectedSeq = options?.expectedSeq as number;
  const prepared = prepareEntries(entries, expectedSeq, new Date(), { lines });
  return { expectedSeq, prepared, deleteCheckpoint: checkDeleteCheckpoint(options?.deleteCheckpoint) };
}

/** Checks `append`'s `deleteCheckpoint` option: undefined or a turn id. */
function checkDeleteCheckpoint(turnId: unknown): string | undefined {
  if (turnId === undefined) return undefined;
  if (!isSessionId(turnId)) throw new TypeError("append: `deleteCheckpoint` must be a turn id");
  return turnId;
}
