import { randomUUID } from "node:crypto";
import { memoryMethodsOf } from "./memory-records.js";
import { shareEventLoop } from "./event-loop-share.js";
import { ConflictError, SessionBusyError, SessionNotFoundError, assertSessionId } from "./errors.js";
import { checkCheckpointArgs, checkFromSeq, checkTtl, conflict } from "./store-helpers.js";
import { checkAppend } from "./append-checks.js";
import { checkLinks, prepareSessionEntry } from "./journal-entries.js";
import { deepFreeze, shareRepeats, type SharedRepeats } from "./entry-sharing.js";
import { brandStore } from "./journal-open.js";
import { memoryArea } from "./memory-area.js";
import { fileIdOf, fileToKeep, keptRef, storedRef } from "./file-records.js";
import { endEntryOf, endSaysAll, endTurn, freezeTurn, newTurn, startEntryOf, startSaysAll, thawTurn, type StoredTurn } from "./turn-records.js";
import { foldEntry, pageSessions, startListing, toSessionInfo, type SessionListing } from "./session-listing.js";
import type {
  AppendOptions,
  ChatStore,
  CreateSessionOptions,
  FileRef,
  NewFile,
  StoredFile,
  JournalEntry,
  ListSessionsOptions,
  NewJournalEntry,
  SessionInfo,
  StoredCheckpoint,
  TurnLease,
} from "./types.js";

/** A session: its journal, listing, lease and checkpoints; itself what the next entry may share (`shareRepeats`). */
interface MemorySession extends SharedRepeats {
  /**
   * The journal, one slot per entry (slot `i` is seq `i + 1`): the entry (deep-frozen, so what `read` hands out
   * cannot change the journal) or, where a turn's record says all of it, the turn-start's record index in
   * `turns` (`-1 - index` when it named no parent) or the turn-end's turn id (see `turn-records.ts`).
   */
  slots: (JournalEntry | number | string)[];
  /** Every turn's record (frozen), as its turn-start and first turn-end say; shared with open sessions. */
  turns: StoredTurn[];
  /** The turns by id, made once there are more than `SCAN_MAX`. */
  byId: Map<string, StoredTurn> | undefined;
  /** The last turn started or checked out (what a turn-start that names no parent continues). */
  leaf: string | undefined;
  listing: SessionListing;
  /** Order of the last write, to order sessions updated in the same millisecond. */
  touched: number;
  lease: { token: string; expiresAt: number } | undefined;
  /** Unfinished durable turns' checkpoints, by turn id, in order of last write (created with the first). */
  checkpoints: Map<string, StoredCheckpoint> | undefined;
  /** The session's files' bytes by id (their SHA-256), made with the first. */
  files: Map<string, { mediaType: string; bytes: Uint8Array }> | undefined;
}

/**
 * A store that keeps sessions in this process's memory: for tests and throwaway chats. Same contract as
 * every store (ids checked, entries JSON-safe, atomic appends, leases), nothing survives the process.
 *
 * @example
 * const chat = createChat({ model, store: memoryStore() });
 */
export function memoryStore(): ChatStore {
  const sessions = new Map<string, MemorySession>();
  const memory = memoryArea();
  let clock = 0;

  function get(id: unknown): MemorySession {
    assertSessionId(id);
    const session = sessions.get(id);
    if (!session) throw new SessionNotFoundError(id);
    return session;
  }

  const store: ChatStore = {
    durable: false,
    async createSession(options: CreateSessionOptions): Promise<SessionInfo> {
      const id = options?.id;
      assertSessionId(id);
      const { entries } = prepareSessionEntry(id, options.metadata, new Date(), options.owner);
      if (sessions.has(id)) throw new ConflictError(id, `Session "${id}" exists already`);
      const frozen = entries.map(deepFreeze);
      const listing = startListing(frozen[0]);
      // Every field from the start: they live in the object.
      const session: MemorySession = {
        slots: frozen,
        turns: [],
        byId: undefined,
        leaf: undefined,
        listing,
        touched: ++clock,
        lease: undefined,
        checkpoints: undefined,
        files: undefined,
        turnId: undefined,
        builder: undefined,
        metadata: undefined,
      };
      sessions.set(id, session);
      return toSessionInfo(id, listing);
    },

    async getSession(id: string): Promise<SessionInfo | undefined> {
      assertSessionId(id);
      const session = sessions.get(id);
      return session && toSessionInfo(id, session.listing);
    },

    async listSessions(options?: ListSessionsOptions): Promise<SessionInfo[]> {
      const candidates = [...sessions].map(([id, s]) => ({ info: toSessionInfo(id, s.listing), tie: s.touched }));
      return pageSessions(candidates, options);
    },

    async deleteSession(id: string): Promise<boolean> {
      assertSessionId(id);
      memory.forgetSession(id);
      return sessions.delete(id);
    },

    async append(sessionId: string, entries: NewJournalEntry[], options: AppendOptions): Promise<JournalEntry[]> {
      const share = shareEventLoop();
      if (share) await share;
      const session = get(sessionId);
      const { expectedSeq, prepared, deleteCheckpoint } = checkAppend(sessionId, entries, options, { lines: false });
      const lastSeq = session.listing.lastSeq;
      if (lastSeq !== expectedSeq) throw conflict(sessionId, expectedSeq, lastSeq);
      checkLinks(prepared.entries, (id) => find(session, id) !== undefined);
      for (const entry of prepared.entries) {
        shareRepeats(entry, session);
        const stored = deepFreeze(entry);
        keep(session, stored);
        foldEntry(session.listing, stored);
      }
      if (prepared.entries.length > 0) {
        session.touched = ++clock;
        fit(session);
      }
      if (deleteCheckpoint !== undefined) session.checkpoints?.delete(deleteCheckpoint);
      // The stored entries themselves: deep-frozen, like what `read` hands out, so nobody can change the journal.
      return prepared.entries;
    },

    async read(sessionId: string, options?: { fromSeq?: number }): Promise<JournalEntry[]> {
      const session = get(sessionId);
      const from = checkFromSeq(options?.fromSeq);
      const out: JournalEntry[] = [];
      for (let i = from - 1; i < session.slots.length; i++) out.push(entryAt(session, i));
      return out;
    },

    async putCheckpoint(sessionId: string, turnId: string, data: string): Promise<void> {
      checkCheckpointArgs("putCheckpoint", sessionId, turnId, data);
      const session = get(sessionId);
      const stored = Object.freeze({ turnId, data, updatedAt: new Date().toISOString() });
      // Listed in the order of their last write, as the other stores do.
      session.checkpoints ??= new Map();
      session.checkpoints.delete(turnId);
      session.checkpoints.set(turnId, stored);
    },

    async getCheckpoint(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined> {
      checkCheckpointArgs("getCheckpoint", sessionId, turnId);
      return get(sessionId).checkpoints?.get(turnId);
    },

    async listCheckpoints(sessionId: string): Promise<StoredCheckpoint[]> {
      assertSessionId(sessionId);
      return [...(get(sessionId).checkpoints?.values() ?? [])];
    },

    async deleteCheckpoint(sessionId: string, turnId: string): Promise<boolean> {
      checkCheckpointArgs("deleteCheckpoint", sessionId, turnId);
      return get(sessionId).checkpoints?.delete(turnId) ?? false;
    },

    async putFile(sessionId: string, file: NewFile): Promise<FileRef> {
      const kept = fileToKeep(sessionId, file);
      const session = get(sessionId);
      session.files ??= new Map();
      if (!session.files.has(kept.id)) session.files.set(kept.id, { mediaType: kept.mediaType, bytes: kept.bytes });
      return keptRef(kept);
    },

    async getFile(sessionId: string, fileId: string): Promise<StoredFile | undefined> {
      const id = fileIdOf(sessionId, fileId);
      const found = id === undefined ? undefined : sessions.get(sessionId)?.files?.get(id);
      // A copy: what the store keeps cannot change.
      return found && { ref: storedRef(id!, found.mediaType, found.bytes.byteLength), bytes: new Uint8Array(found.bytes) };
    },

    ...memoryMethodsOf(memory),

    async acquireTurn(sessionId: string, options?: { ttlMs?: number }): Promise<TurnLease> {
      const session = get(sessionId);
      const ttlMs = checkTtl(options?.ttlMs);
      const now = Date.now();
      if (session.lease && session.lease.expiresAt > now) {
        throw new SessionBusyError(sessionId, "another turn holds its lease");
      }
      const token = randomUUID();
      session.lease = { token, expiresAt: now + ttlMs };
      return Object.freeze({ sessionId, token });
    },

    async releaseTurn(lease: TurnLease): Promise<void> {
      const session = sessions.get(lease?.sessionId);
      if (session?.lease?.token === lease.token) session.lease = undefined;
    },
  };
  // Every entry was checked when it was appended, and `read` hands out those very (frozen) entries or
  // frozen ones rebuilt from the turns that say all of them.
  return brandStore(store, {
    turn: (sessionId, turnId) => {
      const session = sessions.get(sessionId);
      return session && find(session, turnId);
    },
    entries: (sessionId, toSeq) => {
      const session = get(sessionId);
      const out: JournalEntry[] = [];
      for (let i = 0; i < toSeq && i < session.slots.length; i++) out.push(entryAt(session, i));
      return out;
    },
  });
}

/** Up to this many turns, a turn is found by looking through them. */
const SCAN_MAX = 16;
/** Journals up to this many entries are kept in arrays of their exact length (a copy of each per append). */
const FIT_MAX = 64;

/** Gives a short journal's arrays no room to grow: an idle session holds what it has. */
function fit(session: MemorySession): void {
  if (session.slots.length <= FIT_MAX) {
    session.slots = session.slots.slice();
    session.turns = session.turns.slice();
  }
}

function find(session: MemorySession, turnId: string): StoredTurn | undefined {
  if (session.byId) return session.byId.get(turnId);
  const turns = session.turns;
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.id === turnId) return turns[i];
  return undefined;
}

/**
 * Keeps a stored entry: a turn-start makes its turn's record and a turn's first turn-end ends it, and either
 * is then kept as its slot's stand-in when the record says all of it. Every other entry (a second end, a
 * steer, feedback) is kept as it is and leaves the record alone.
 */
function keep(session: MemorySession, entry: JournalEntry): void {
  const { slots, turns } = session;
  switch (entry.type) {
    case "turn-start": {
      if (find(session, entry.turnId)) break;
      const turn = freezeTurn(newTurn(entry.turnId, entry.parentTurnId ?? session.leaf, entry));
      turns.push(turn);
      if (session.byId) session.byId.set(turn.id, turn);
      else if (turns.length > SCAN_MAX) session.byId = new Map(turns.map((t) => [t.id, t]));
      session.leaf = turn.id;
      const named = startSaysAll(entry, turn);
      if (named === undefined) break;
      slots.push(named ? turns.length - 1 : -turns.length);
      return;
    }
    case "turn-end": {
      const turn = find(session, entry.turnId);
      if (turn === undefined || turn.endedAt !== undefined) break;
      const ended = thawTurn(turn);
      endTurn(ended, entry);
      const next = freezeTurn(ended);
      turns[turns.lastIndexOf(turn)] = next;
      session.byId?.set(next.id, next);
      if (!endSaysAll(entry, next)) break;
      slots.push(next.id);
      return;
    }
    case "checkout":
      if (entry.turnId === undefined) session.leaf = undefined;
      else if (find(session, entry.turnId)) session.leaf = entry.turnId;
      break;
    default:
      break;
  }
  slots.push(entry);
}

/** The entry of slot `i`, rebuilt from its turn's record where that stands for it. */
function entryAt(session: MemorySession, i: number): JournalEntry {
  const slot = session.slots[i]!;
  if (typeof slot === "number") return slot >= 0 ? startEntryOf(session.turns[slot]!, i + 1, true) : startEntryOf(session.turns[-1 - slot]!, i + 1, false);
  if (typeof slot === "string") return endEntryOf(find(session, slot)!, i + 1);
  return slot;
}
