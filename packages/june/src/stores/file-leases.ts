import { waitForJournalWriters } from "./file-journal.js";
import { SessionBusyError, assertSessionId } from "./errors.js";
import { forgetKept, keepLease, releaseKept } from "./kept-leases.js";
import { LeaseTemplates, type LeaseTemplate } from "./lease-templates.js";
import { hostName, isLockFile, newOwner, tryLock, unlock, unlockOwn, unlockOwnSync, type LockFileId } from "./lock-file.js";
import { checkTtl } from "./store-helpers.js";
import type { TurnLease } from "./types.js";

/** A lease this store took and has not released: token, lock file, when (`Date.now()`), how long. */
export interface HeldLease {
  token: string;
  file: LockFileId;
  template?: LeaseTemplate;
  takenAt: number;
  ttlMs: number;
  /** Kept after its turn ended, for the session's next turn here, since then (`Date.now()`). */
  kept?: number;
  /** Its entry in the process's kept leases (`kept-leases.ts`), while kept. */
  releaseKept?: () => void;
}
/** How long a lease stays kept after its turn's end by default: not at all (see `FileStoreOptions.keepLeaseMs`). */
const KEEP_LEASE_MS = 0;

/** What a file store's leases need of the store: its folder, paths, its option and its append queues. */
export interface FileLeasesContext {
  root: string;
  /** `FileStoreOptions.keepLeaseMs`, checked by `fileStore`. */
  keepLeaseMs: number | undefined;
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
 * released, released with an append that ends their turn (`endsLease`), or kept for the session's next turn
 * here (`keepLeaseMs`).
 */
export function fileLeases(ctx: FileLeasesContext) {
  const { root, journalPath, leasePath, queues, queued, exists } = ctx;
  const keepLeaseMs = ctx.keepLeaseMs ?? KEEP_LEASE_MS;
  /** The leases this store took and has not released, by session: token, file, when (`Date.now()`), how long. */
  const held = new Map<string, HeldLease>();
  const templates = new LeaseTemplates(root);
  /** Tokens of leases an append released with their turn's end (`endsLease`), until `releaseTurn` comes for them. */
  const releasedWithAppend = new Set<string>();
  /** Releases the kept leases idle for `keepLeaseMs` (one timer for all, armed while any is kept). */
  let keptSweep: NodeJS.Timeout | undefined;
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
    endWithAppend,
    /** Releases the session's lease if it is kept (the session is being deleted). */
    releaseKept(sessionId: string): void {
      const own = held.get(sessionId);
      if (own?.kept !== undefined) releaseKeptNow(sessionId, own);
    },
    /** Releases every kept lease and stops their timer (the store closes). */
    releaseAllKept(): void {
        for (const [sessionId, own] of [...held]) if (own.kept !== undefined) releaseKeptNow(sessionId, own);
        clearTimeout(keptSweep);
        keptSweep = undefined;
    },
    /** Removes the lease templates (after `releaseAllKept`). */
    close: (): Promise<void> => templates.close(),
  };

  async function acquire(sessionId: string, opts?: { ttlMs?: number }): Promise<TurnLease> {
    assertSessionId(sessionId);
    const ttlMs = checkTtl(opts?.ttlMs);
    const own = held.get(sessionId);
    if (own?.kept !== undefined) {
      // Kept since this session's last turn here: taken again as it is, unless a lease with an expiry is asked.
      const again = Number.isFinite(ttlMs) ? undefined : takeKept(sessionId, own);
      if (again) return again;
      if (held.get(sessionId) === own) releaseKeptNow(sessionId, own);
    }
    exists(sessionId);
    const takenAt = Date.now();
    let attempt = await tryLock(leasePath(sessionId), { ttlMs, templates });
    // Kept by another store of this process between its turns: let go at once, as a release would have.
    if (!attempt.acquired && releaseKept(leasePath(sessionId))) attempt = await tryLock(leasePath(sessionId), { ttlMs, templates });
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

  /**
   * The end of the turn that holds `own` was just written: the lease is kept for the session's next turn here
   * (`keepLeaseMs`; a lease without an expiry only), else released (`releaseWithAppend`). `releaseTurn` then
   * has nothing left to do. A kept lease is the lock file as it was, this process's: another process finds the
   * session busy until it is released (the timer, `close()`, `deleteSession`, another store of this process
   * asking for it, the process's exit).
   */
  async function endWithAppend(sessionId: string, own: HeldLease): Promise<void> {
    if (keepLeaseMs <= 0 || Number.isFinite(own.ttlMs) || own.template === undefined) return releaseWithAppend(sessionId, own);
    releasedWithAppend.add(own.token);
    const release = () => {
      if (held.get(sessionId) === own && own.kept !== undefined) releaseKeptNow(sessionId, own);
    };
    own.releaseKept = release;
    own.kept = Date.now();
    keepLease(leasePath(sessionId), release);
    keptSweep ??= setTimeout(sweepKept, keepLeaseMs).unref();
  }

  /** The timer of kept leases: releases those idle for `keepLeaseMs`, then waits for the next one's time. */
  function sweepKept(): void {
    keptSweep = undefined;
    const now = Date.now();
    let next = Infinity;
    for (const [sessionId, own] of [...held]) {
      if (own.kept === undefined) continue;
      // An append of this session in flight writes under this lease: it goes once that is done.
      const due = queues.has(sessionId) ? now + 10 : own.kept + keepLeaseMs;
      if (due <= now) releaseKeptNow(sessionId, own);
      else next = Math.min(next, due);
    }
    if (next !== Infinity) keptSweep = setTimeout(sweepKept, Math.max(1, next - now)).unref();
  }

  /**
   * A kept lease taken again for a new turn: one stat tells the lock is still its file (nobody else may take
   * it over while this process lives, but a person or another process's `deleteSession` may remove it), and
   * the lock is rewritten with the new lease's owner. Undefined when the lock is gone (the caller takes a new one).
   */
  function takeKept(sessionId: string, own: HeldLease): TurnLease | undefined {
    own.kept = undefined;
    if (own.releaseKept) forgetKept(leasePath(sessionId), own.releaseKept);
    own.releaseKept = undefined;
    const template = own.template!;
    if (!isLockFile(leasePath(sessionId), own.file)) {
      held.delete(sessionId);
      templates.giveBack(template);
      return undefined;
    }
    const takenAt = Date.now();
    const owner = newOwner(takenAt);
    templates.rewrite(template, JSON.stringify(owner));
    // The old token stays in `releasedWithAppend`: a `releaseTurn` of the ended turn's lease still finds nothing to do.
    own.token = owner.token;
    own.takenAt = takenAt;
    own.file = { ino: template.ino, size: template.size, birthtimeMs: template.birthtimeMs };
    return Object.freeze({ sessionId, token: owner.token });
  }

  /** Releases a kept lease now, synchronously (a timer, `close()`, another store's need, the process's exit). */
  function releaseKeptNow(sessionId: string, own: HeldLease): void {
    own.kept = undefined;
    if (own.releaseKept) forgetKept(leasePath(sessionId), own.releaseKept);
    own.releaseKept = undefined;
    held.delete(sessionId);
    let unlinked = false;
    try {
      unlinked = unlockOwnSync(leasePath(sessionId), own.file);
    } catch {
      // Left to be taken over (its owner's pid is checked), as a failed release would leave it.
    } finally {
      if (own.template) templates.giveBack(own.template, unlinked);
    }
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
