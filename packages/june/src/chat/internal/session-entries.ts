import type { ChatStore, JournalEntry } from "../../stores/types.js";
import type { Session } from "../types.js";

/**
 * The session's method that gives its journal's entries as it holds them, caught up with the store:
 * `session[sessionEntries]()`. Keyed by a symbol so it is no part of the `Session` interface.
 */
export const sessionEntries: unique symbol = Symbol.for("june.sessionEntries");

/** A session that hands out its journal's entries (every session a chat opens). */
export interface SessionEntriesHolder {
  [sessionEntries](): Promise<readonly JournalEntry[]>;
}

/** A session's journal entries: the ones it holds when it hands them out, else the store's (one more read). */
export function entriesOf(session: Session, store: ChatStore): Promise<readonly JournalEntry[]> {
  const holder = session as Session & Partial<SessionEntriesHolder>;
  return typeof holder[sessionEntries] === "function" ? holder[sessionEntries]() : store.read(session.id);
}
