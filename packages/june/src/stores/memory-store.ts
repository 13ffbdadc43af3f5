import { randomUUID } from "node:crypto";
import { shareEventLoop } from "./event-loop-share.js";
import { ConflictError, SessionBusyError, SessionNotFoundError, assertSessionId } from "./errors.js";
import { checkCheckpointArgs, checkDeleteCheckpoint, checkFromSeq, checkTtl, conflict } from "./store-helpers.js";
import { prepareEntries, prepareSessionEntry } from "./journal-entries.js";
import { deepFreeze, shareRepeats, type SharedRepeats } from "./entry-sharing.js";
import { brandStore } from "./journal-open.js";
import { foldEntry, pageSessions, startListing, toSessionInfo, type SessionListing } from "./session-listing.js";
import type {
  AppendOptions,
  ChatStore,
  JournalEntry,
  ListSessionsOptions,
  NewJournalEntry,
  SessionInfo,
  StoredCheckpoint,
  TurnLease,
} from "./types.js";

interface MemorySession {
  /** Deep-frozen, so what `read` hands out cannot change the journal. */
  entries: JournalEntry[];
  listing: SessionListing;
  /** Order of the last write, to order sessions updated in the same millisecond. */
  touched: number;
  lease?: { token: string; expiresAt: number };
  /** Unfinished durable turns' checkpoints, by turn id, in order of last write (created with the first). */
  checkpoints?: Map<string, StoredCheckpoint>;
  /** What the next entry may share with those before it (`shareRepeats`). */
  repeats: SharedRepeats;
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
  let clock = 0;

  function get(id: unknown): MemorySession {
    assertSessionId(id);
    const session = sessions.get(id);
    if (!session) throw new SessionNotFoundError(id);
    return session;
  }

  const store: ChatStore = {
    durable: false,
    async createSession(options: { id: string; metadata?: Record<string, unknown> }): Promise<SessionInfo> {
      const id = options?.id;
      assertSessionId(id);
      const { entries } = prepareSessionEntry(id, options.metadata, new Date());
      if (sessions.has(id)) throw new ConflictError(id, `Session "${id}" exists already`);
      const frozen = entries.map(deepFreeze);
      const listing = startListing(frozen[0]);
      sessions.set(id, { entries: frozen, listing, touched: ++clock, repeats: {} });
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
      return sessions.delete(id);
    },

    async append(sessionId: string, entries: NewJournalEntry[], options: AppendOptions): Promise<JournalEntry[]> {
      const share = shareEventLoop();
      if (share) await share;
      const session = get(sessionId);
      const expectedSeq = options?.expectedSeq;
      const prepared = prepareEntries(entries, expectedSeq, new Date());
      const deleteCheckpoint = checkDeleteCheckpoint(options?.deleteCheckpoint);
      const lastSeq = session.listing.lastSeq;
      if (lastSeq !== expectedSeq) throw conflict(sessionId, expectedSeq, lastSeq);
      for (const entry of prepared.entries) {
        shareRepeats(entry, session.repeats);
        const stored = deepFreeze(entry);
        session.entries.push(stored);
        foldEntry(session.listing, stored);
      }
      if (prepared.entries.length > 0) session.touched = ++clock;
      if (deleteCheckpoint !== undefined) session.checkpoints?.delete(deleteCheckpoint);
      // The stored entries themselves: deep-frozen, like what `read` hands out, so nobody can change the journal.
      return prepared.entries;
    },

    async read(sessionId: string, options?: { fromSeq?: number }): Promise<JournalEntry[]> {
      const session = get(sessionId);
      const from = checkFromSeq(options?.fromSeq);
      return session.entries.slice(from - 1);
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
  // Every entry was checked when it was appended, and `read` hands out those very (frozen) entries.
  return brandStore(store, {});
}
