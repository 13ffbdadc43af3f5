import { waitForJournalWriters } from "./file-journal.js";
import { SessionBusyError, assertSessionId } from "./errors.js";
import { LeaseTemplates, type LeaseTemplate } from "./lease-templates.js";
import { hostName, tryLock, unlock, unlockOwn, type LockFileId } from "./lock-file.js";
import { checkTtl } from "./store-helpers.js";
import type { TurnLease } from "./types.js";

/** A lease this store took and has not released: token, lock file, when (`Date.now()`), how long. */
export interface HeldLease {
  token: string;
  file: LockFileId;
  template?: LeaseTemplate;
  takenAt: number;
  ttlMs: number;
}

/** What a file store's leases need of the store: its folder, paths and its append queues. */
export interface FileLeasesContext {
  root: string;
  journalPath(sessionId: string): string;
  leasePath(sessionId: string): string;
  /** The appends in flight, by session. */
  queues: ReadonlyMap<string, Promise<unknown>>;
  /** Runs a task after the session's appends in flight. */
  queued<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /** Throws `SessionNotFoundError` when the session's journal is gone. */
  exists(sessionId: string): void;
}

/**
 * A file store's turn leases: lock files (`<id>.lock`) linked from templates, held by this store until
 * released, or released with an append that ends their turn (`endsLease`).
 */
export function fileLeases(ctx: FileLeasesContext) {
  const { root, journalPath, leasePath, queues, queued, exists } = ctx;
  /** The leases this store took and has not released, by session: token, file, when (`Date.now()`), how long. */
  const held = new Map<string, HeldLease>();
  const templates = new LeaseTemplates(root);
  /** Tokens of leases an append released with their turn's end (`endsLease`), until `releaseTurn` comes for them. */
  const releasedWithAppend = new Set<string>();
  const ownsLease = (token: string) => {
    for (const lease of held.values()) if (lease.token === token) return true;
    return false;
  };

  return {
    /** The lease this store holds for the session, if any. */
    held: (sessionId: string): HeldLease | undefined => held.get(sessionId),
    /** Whether this store holds the lease with this token. */
    ownsLease,
    acquire,
    release,
    releaseWithAppend,
    /** Removes the lease templates (the store closes). */
    close: (): Promise<void> => templates.close(),
  };

  async function acquire(sessionId: string, opts?: { ttlMs?: number }): Promise<TurnLease> {
    assertSessionId(sessionId);
    const ttlMs = checkTtl(opts?.ttlMs);
    exists(sessionId);
    const takenAt = Date.now();
    const attempt = await tryLock(leasePath(sessionId), { ttlMs, templates });
    if (!attempt.acquired) {
      const owner = attempt.owner;
      const where = owner && owner.host !== hostName() ? ` on ${owner.host}` : "";
      throw owner
        ? new SessionBusyError(sessionId, undefined, { holder: `its lease is held by process ${owner.pid}${where}` })
        : new SessionBusyError(sessionId, "its lease is being taken");
    }
    // The lease's appends take no journal lock: first let a writer that locked the journal before it finish.
    try {
      await waitForJournalWriters(sessionId, journalPath(sessionId));
    } catch (error) {
      await unlockOwn(leasePath(sessionId), attempt.token, attempt.file, takenAt, ttlMs).catch(() => undefined);
      if (attempt.template) templates.giveBack(attempt.template);
      throw error;
    }
    held.set(sessionId, { token: attempt.token, file: attempt.file, template: attempt.template, takenAt, ttlMs });
    return Object.freeze({ sessionId, token: attempt.token });
  }

  async function release(lease: TurnLease): Promise<void> {
    assertSessionId(lease?.sessionId);
    const own = held.get(lease.sessionId);
    if (own === undefined || own.token !== lease.token) {
      // Released already by the append that ended its turn (`endsLease`), or not this store's.
      if (!releasedWithAppend.delete(lease.token)) await unlock(leasePath(lease.sessionId), lease.token);
      return;
    }
    // Appends of this session still in flight end before the lease goes (they take no journal lock).
    if (queues.has(lease.sessionId)) await queued(lease.sessionId, async () => undefined);
    if (releasedWithAppend.delete(lease.token)) return; // by one of them, its turn's end
    if (held.get(lease.sessionId) === own) await releaseHeld(lease.sessionId, own);
  }

  /**
   * Releases the lease of a turn whose end was just written, before that end is flushed: the end is not
   * acknowledged until then (its append resolves after the flush), and a writer that takes the lease meanwhile
   * appends to the same file, whose next flush carries this one's bytes too. A release that fails leaves the
   * lease to expire, as a failed `releaseTurn` would; the append stands.
   */
  async function releaseWithAppend(sessionId: string, own: HeldLease): Promise<void> {
    releasedWithAppend.add(own.token);
    await releaseHeld(sessionId, own).catch(() => undefined);
  }

  /** Releases a lease this store holds: its lock goes, its template may be linked again. */
  async function releaseHeld(sessionId: string, own: HeldLease): Promise<void> {
    held.delete(sessionId);
    // A lease this store took is released with fewer calls while no one may take it over (see unlockOwn).
    let unlinked = false;
    try {
      unlinked = await unlockOwn(leasePath(sessionId), own.token, own.file, own.takenAt, own.ttlMs);
    } finally {
      // Its lock is gone (or was taken over): the template may be linked again, without a look at its links
      // when this store removed the lock itself (it was this very file, and no one else names it).
      if (own.template) templates.giveBack(own.template, unlinked);
    }
  }
}
