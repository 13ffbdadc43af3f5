import { checkLinks } from "./journal-entries.js";
import type { JournalEntry } from "./types.js";

/** Sessions whose started turns a store remembers; the least recently used is forgotten past this. */
const MAX_SESSIONS = 512;

/**
 * The turns a store has seen started, per session (what it appended or read): what an append's links are
 * checked against (`checkLinks`) before the store is asked. Only ever a subset of the journal's turns (a
 * journal never loses a turn but with its session, which `forget` drops), so a turn it does not know is
 * looked up in the store, once, and the session's turns are then all known.
 */
export class KnownTurns {
  readonly #sessions = new Map<string, Set<string>>();

  /** Notes the turns that `entries` (appended or read) start. */
  learn(sessionId: string, entries: Iterable<{ readonly type: string; readonly turnId?: string | undefined }>): void {
    let turns: Set<string> | undefined;
    for (const entry of entries) {
      if (entry.type !== "turn-start" || entry.turnId === undefined) continue;
      turns ??= this.#turns(sessionId);
      turns.add(entry.turnId);
    }
  }

  /** Drops a session (deleted: its id may be used again). */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /**
   * Checks the links of entries an append is about to write (`checkLinks`): against the turns known, and when
   * one is not, against every turn the store finds started in the session (`lookup`, which also throws
   * `SessionNotFoundError` for a session that is gone). Throws `TypeError` naming the entry; returns a promise
   * only when it had to look.
   */
  check(sessionId: string, entries: readonly JournalEntry[], lookup: () => Promise<Iterable<string>> | Iterable<string>): void | Promise<void> {
    const known = this.#sessions.get(sessionId);
    let missing = false;
    checkLinks(entries, (id) => {
      if (known?.has(id) !== true) missing = true;
      return true;
    });
    if (!missing) return;
    const found = lookup();
    const finish = (ids: Iterable<string>) => {
      const turns = this.#turns(sessionId);
      for (const id of ids) turns.add(id);
      checkLinks(entries, (id) => turns.has(id));
    };
    if (Symbol.iterator in found) return finish(found);
    return found.then(finish);
  }

  /** The session's set, made the most recently used. */
  #turns(sessionId: string): Set<string> {
    let turns = this.#sessions.get(sessionId);
    if (turns) this.#sessions.delete(sessionId);
    else turns = new Set();
    this.#sessions.set(sessionId, turns);
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    return turns;
  }
}
