import { randomUUID } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { link, mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { CheckpointFiles, type JournalEnds } from "./checkpoint-files.js";
import { shareEventLoop } from "./event-loop-share.js";
import {
  ConflictError,
  JournalCorruptError,
  SessionBusyError,
  SessionNotFoundError,
  assertSessionId,
  isSessionId,
} from "./errors.js";
import { appendToJournal, readJournal, readJournalBytes, syncDirectory, waitForJournalWriters } from "./file-journal.js";
import { EntryLine, brandStore, decodeJournalForOpen, type OpenedJournal } from "./journal-open.js";
import { decodeAppended, encodeBatch } from "./journal-codec.js";
import { prepareSessionEntry } from "./journal-entries.js";
import { JournalHandles } from "./journal-handles.js";
import { KnownTurns } from "./known-turns.js";
import { LeaseTemplates, type LeaseTemplate } from "./lease-templates.js";
import { forgetKept, keepLease, releaseKept } from "./kept-leases.js";
import { hasCode, hostName, isLockFile, newOwner, tryLock, unlock, unlockOwn, unlockOwnSync, withinHalfTtl, type LockFileId } from "./lock-file.js";
import { checkListOptions, foldEntry, pageSessions, startListing, toSessionInfo } from "./session-listing.js";
import { checkCheckpointArgs, checkFromSeq, checkTtl } from "./store-helpers.js";
import { checkAppend } from "./append-checks.js";
import { ListingCache, fileKey, readListing, sameState, type CachedListing, type FileKey } from "./listing-cache.js";
import type {
  AppendOptions,
  ChatStore,
  CreateSessionOptions,
  FileRef,
  JournalEntry,
  ListSessionsOptions,
  NewFile,
  NewJournalEntry,
  SessionInfo,
  StoredCheckpoint,
  StoredFile,
  TurnLease,
} from "./types.js";
import { FileBlobs } from "./file-blobs.js";
import { fileIdOf, fileToKeep, keptRef } from "./file-records.js";
import type { FileStoreOptions } from "./file-store.js";


const JOURNAL_EXT = ".jsonl";

/** A lease this store took and has not released: token, lock file, when (`Date.now()`), how long. */
interface HeldLease {
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

/** Sessions listed per slice of `listSessions` before yielding to the event loop. */
const LIST_SLICE = 256;

/**
 * The file store itself (see `fileStore`, which loads this module on a store's first call).
 * @param dir The directory of the journals, resolved.
 */
export function fileStoreCore(dir: string, options: FileStoreOptions = {}): ChatStore {
  const root = resolve(dir);
  const fsync = options.fsync ?? true;
  // Checked by `fileStore`, which makes this store.
  const keepLeaseMs = options.keepLeaseMs ?? KEEP_LEASE_MS;
  const cache = new ListingCache(root);
  const queues = new Map<string, Promise<unknown>>();
  const handles = new JournalHandles();
  const checkpoints = new CheckpointFiles(root, fsync);
  const files = new FileBlobs(root, fsync);
  const known = new KnownTurns();
  // What a crash left of checkpoints goes before any checkpoint is read (see `CheckpointFiles.sweep`).
  const swept = checkpoints.sweep(journalEnds).catch(() => undefined);
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
  /**
   * Journals a read found corrupt where a listing's scan cannot see it (a line in the middle), by id, with
   * the file's state then: listings mark them until the file changes.
   */
  const corrupted = new Map<string, { key: FileKey; corrupt: NonNullable<SessionInfo["corrupt"]> }>();

  // Session ids are checked names (no separator, no dot): the same paths as `join`'s, without its normalizing.
  const prefix = root.endsWith(sep) ? root : root + sep;
  const journalPath = (id: string) => prefix + id + JOURNAL_EXT;
  const leasePath = (id: string) => `${prefix}${id}.lock`;

  /** Runs this process's appends to one session one at a time (the lock file orders processes). */
  function queued<T>(id: string, task: () => Promise<T>): Promise<T> {
    const result = (queues.get(id) ?? Promise.resolve()).then(task, task);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    queues.set(id, settled);
    void settled.then(() => queues.get(id) === settled && queues.delete(id));
    return result;
  }

  function exists(id: string): void {
    try {
      statSync(journalPath(id));
    } catch (error) {
      if (hasCode(error, "ENOENT")) throw new SessionNotFoundError(id);
      throw error;
    }
  }

  const store: ChatStore = {
    async createSession(opts: CreateSessionOptions): Promise<SessionInfo> {
      const id = opts?.id;
      assertSessionId(id);
      const { entries, lines } = prepareSessionEntry(id, opts.metadata, new Date(), opts.owner);
      await mkdir(root, { recursive: true });
      const bytes = encodeBatch(lines);
      const path = journalPath(id);
      // Written aside then linked into place: the journal never exists half-written, and link fails if it exists.
      const tmp = join(root, `.${id}.${randomUUID()}.tmp`);
      try {
        await writeFile(tmp, bytes, { flag: "wx", flush: fsync });
        try {
          await link(tmp, path);
        } catch (error) {
          if (hasCode(error, "EEXIST")) throw new ConflictError(id, `Session "${id}" exists already`);
          if (!["EPERM", "ENOTSUP", "ENOSYS", "EXDEV"].some((code) => hasCode(error, code))) throw error;
          // A file system without hard links: exclusive create, then write.
          await writeFile(path, bytes, { flag: "wx", flush: fsync }).catch((e: unknown) => {
            throw hasCode(e, "EEXIST") ? new ConflictError(id, `Session "${id}" exists already`) : e;
          });
        }
      } finally {
        await unlink(tmp).catch(() => undefined);
      }
      if (fsync) await syncDirectory(root);
      const listing = startListing(entries[0]);
      // Known already: spare the next listing a read of this journal.
      const stats = await stat(path).catch(() => undefined);
      if (stats?.size === bytes.length) cache.set(id, { listing, validBytes: bytes.length, ...fileKey(stats) });
      return toSessionInfo(id, listing);
    },

    async getSession(id: string): Promise<SessionInfo | undefined> {
      assertSessionId(id);
      let cached: CachedListing;
      try {
        cached = await readListing(cache, id, journalPath(id));
      } catch (error) {
        if (hasCode(error, "ENOENT")) return undefined;
        if (JournalCorruptError.isInstance(error)) return describeSync(id);
        throw error;
      }
      const info = toSessionInfo(id, cached.listing);
      const corrupt = knownCorrupt(id, cached);
      return corrupt ? { ...info, corrupt } : info;
    },

    async listSessions(opts?: ListSessionsOptions): Promise<SessionInfo[]> {
      checkListOptions(opts);
      let names: string[];
      try {
        names = await readdir(root);
      } catch (error) {
        if (hasCode(error, "ENOENT")) return [];
        throw error;
      }
      await cache.load();
      const ids = names.filter((n) => n.endsWith(JOURNAL_EXT)).map((n) => n.slice(0, -JOURNAL_EXT.length));
      const seen = new Set<string>();
      const candidates: { info: SessionInfo; tie: string }[] = [];
      // Blocking calls in slices: a stat and (for changed journals only) a read each, between event-loop turns.
      for (let i = 0; i < ids.length; i += LIST_SLICE) {
        if (i > 0) await yieldToLoop();
        for (const id of ids.slice(i, i + LIST_SLICE)) {
          if (!isSessionId(id)) continue;
          const info = describeSync(id);
          if (info) {
            seen.add(id);
            candidates.push({ info, tie: `${info.createdAt} ${id}` });
          }
        }
      }
      cache.retain(seen);
      await cache.save();
      return pageSessions(candidates, opts);
    },

    async deleteSession(id: string): Promise<boolean> {
      assertSessionId(id);
      const own = held.get(id);
      if (own?.kept !== undefined) releaseKeptNow(id, own);
      handles.retire(id);
      known.forget(id);
      let existed = true;
      try {
        await unlink(journalPath(id));
      } catch (error) {
        if (!hasCode(error, "ENOENT")) throw error;
        existed = false;
      }
      await unlink(leasePath(id)).catch(() => undefined);
      await unlink(`${journalPath(id)}.append.lock`).catch(() => undefined);
      await checkpoints.deleteAll(id);
      await files.deleteAll(id);
      cache.delete(id);
      return existed;
    },

    async append(sessionId: string, entries: NewJournalEntry[], opts: AppendOptions): Promise<JournalEntry[]> {
      const share = shareEventLoop();
      if (share) await share;
      const { expectedSeq, prepared, deleteCheckpoint } = checkAppend(sessionId, entries, opts);
      const linked = known.check(sessionId, prepared.entries, () => startedTurns(sessionId));
      if (linked) await linked;
      // The turn's end releases its lease once written, while the flush runs (`releaseHeld`).
      const ending = opts?.endsLease?.sessionId === sessionId ? opts.endsLease.token : undefined;
      return queued(sessionId, async () => {
        const lease = held.get(sessionId);
        const written = await appendToJournal({
          afterWrite: lease !== undefined && lease.token === ending ? () => endWithAppend(sessionId, lease) : undefined,
          leased: lease !== undefined && withinHalfTtl(lease.takenAt, lease.ttlMs),
          leasePath: leasePath(sessionId),
          ownsLease,
          sessionId,
          path: journalPath(sessionId),
          expectedSeq,
          lines: prepared.lines,
          sync: fsync && opts.sync === true,
          handles,
          lastState: (fd, key) => cache.refreshFd(sessionId, fd, key),
        });
        const listing = { ...written.before.listing };
        for (const entry of prepared.entries) foldEntry(listing, entry);
        cache.set(sessionId, { listing, validBytes: written.validBytes, ...written.key });
        known.learn(sessionId, prepared.entries);
        // Right after the journal line that ends the turn (a reader ignores a checkpoint of an ended turn).
        if (deleteCheckpoint !== undefined) await checkpoints.delete(sessionId, deleteCheckpoint);
        return prepared.entries;
      });
    },

    async read(sessionId: string, opts?: { fromSeq?: number }): Promise<JournalEntry[]> {
      assertSessionId(sessionId);
      const fromSeq = checkFromSeq(opts?.fromSeq);
      let read: Awaited<ReturnType<typeof readJournal>>;
      try {
        // What is new since the last entry this process saw (a session catching up): from the cached offset.
        const appended = fromSeq > 1 ? readAppended(sessionId, fromSeq) : undefined;
        if (appended) {
          known.learn(sessionId, appended);
          return appended;
        }
        read = await readJournal(sessionId, journalPath(sessionId), fromSeq);
      } catch (error) {
        if (JournalCorruptError.isInstance(error)) remember(sessionId, error);
        throw error;
      }
      const { decoded, key } = read;
      if (fromSeq === 1) {
        // The whole journal was parsed: keep its listing, so that the next append need not read it again.
        const [first, ...rest] = decoded.entries;
        const listing = startListing(first);
        for (const entry of rest) foldEntry(listing, entry);
        cache.set(sessionId, { listing, validBytes: decoded.validBytes, ...key });
      }
      known.learn(sessionId, decoded.entries);
      return decoded.entries;
    },

    async putFile(sessionId: string, file: NewFile): Promise<FileRef> {
      const kept = fileToKeep(sessionId, file);
      exists(sessionId);
      await files.put(sessionId, kept);
      return keptRef(kept);
    },

    async getFile(sessionId: string, fileId: string): Promise<StoredFile | undefined> {
      const id = fileIdOf(sessionId, fileId);
      return id === undefined ? undefined : files.get(sessionId, id);
    },

    async putCheckpoint(sessionId: string, turnId: string, data: string): Promise<void> {
      checkCheckpointArgs("putCheckpoint", sessionId, turnId, data);
      await swept;
      exists(sessionId);
      await checkpoints.put(sessionId, turnId, data);
    },

    async getCheckpoint(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined> {
      checkCheckpointArgs("getCheckpoint", sessionId, turnId);
      await swept;
      exists(sessionId);
      return checkpoints.get(sessionId, turnId);
    },

    async listCheckpoints(sessionId: string): Promise<StoredCheckpoint[]> {
      assertSessionId(sessionId);
      await swept;
      exists(sessionId);
      return checkpoints.list(sessionId);
    },

    async deleteCheckpoint(sessionId: string, turnId: string): Promise<boolean> {
      checkCheckpointArgs("deleteCheckpoint", sessionId, turnId);
      await swept;
      return checkpoints.delete(sessionId, turnId);
    },

    async acquireTurn(sessionId: string, opts?: { ttlMs?: number }): Promise<TurnLease> {
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
    },

    async releaseTurn(lease: TurnLease): Promise<void> {
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
    },

    /** Closes the journals this store keeps open between appends; the store stays usable (it reopens them). */
    async close(): Promise<void> {
      for (const [sessionId, own] of [...held]) if (own.kept !== undefined) releaseKeptNow(sessionId, own);
      clearTimeout(keptSweep);
      keptSweep = undefined;
      await swept;
      await handles.closeAll();
      await templates.close();
    },
  };
  return brandStore(store, { open: openForSession });

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

  /** The whole journal for a session opening it, long replies left as text (see `openJournal`). */
  async function openForSession(sessionId: string): Promise<OpenedJournal> {
    assertSessionId(sessionId);
    const path = journalPath(sessionId);
    try {
      const { buf, key } = await readJournalBytes(sessionId, path);
      const { entries, validBytes, last } = decodeJournalForOpen(buf, sessionId, path);
      // The whole journal was read: keep its listing, so that the next append need not read it again. (The
      // first turn-start is always parsed whole, for the title; a line left as text only counts a turn.)
      const listing = startListing(entries[0] as JournalEntry);
      for (let i = 1; i < entries.length; i++) {
        const entry = entries[i]!;
        if (!(entry instanceof EntryLine)) foldEntry(listing, entry);
        else if (entry.type === "turn-start") listing.turnCount += 1;
      }
      listing.updatedAt = last.at;
      listing.lastSeq = last.seq;
      cache.set(sessionId, { listing, validBytes, ...key });
      known.learn(sessionId, entries);
      return { entries, location: path };
    } catch (error) {
      if (JournalCorruptError.isInstance(error)) remember(sessionId, error);
      throw error;
    }
  }

  /** The turns the session's journal says ended, for the sweep of checkpoints a crash left. */
  async function journalEnds(sessionId: string): Promise<JournalEnds> {
    try {
      const { decoded } = await readJournal(sessionId, journalPath(sessionId), 1);
      return new Set(decoded.entries.flatMap((entry) => (entry.type === "turn-end" ? [entry.turnId] : [])));
    } catch (error) {
      return SessionNotFoundError.isInstance(error) ? "gone" : undefined;
    }
  }

  /** Every turn started in the session's journal, for an append that names a turn this store has not seen. */
  async function startedTurns(sessionId: string): Promise<string[]> {
    const { decoded } = await readJournal(sessionId, journalPath(sessionId), 1);
    return decoded.entries.flatMap((entry) => (entry.type === "turn-start" ? [entry.turnId] : []));
  }

  /** Notes a journal found corrupt, as its file is now, for the listings that follow. */
  function remember(id: string, error: JournalCorruptError): void {
    const stats = statSync(journalPath(id), { throwIfNoEntry: false });
    if (stats) corrupted.set(id, { key: fileKey(stats), corrupt: { line: error.line, detail: error.detail } });
  }

  /** The corruption a read found in this state of the journal, if any (a changed file is looked at afresh). */
  function knownCorrupt(id: string, key: FileKey): SessionInfo["corrupt"] {
    const known = corrupted.get(id);
    if (!known) return undefined;
    if (known.key.ino === key.ino && known.key.size === key.size && known.key.mtimeMs === key.mtimeMs) return known.corrupt;
    corrupted.delete(id);
    return undefined;
  }

  /**
   * The entries from `fromSeq` on when they follow the journal's cached readable part (`fromSeq` is its last seq
   * + 1): a stat, and a read of the bytes after the cached offset only (none when the journal is as last seen).
   * Undefined when the cache cannot tell (another file, a torn tail, an older `fromSeq`): read it all.
   */
  function readAppended(sessionId: string, fromSeq: number): JournalEntry[] | undefined {
    const cached = cache.get(sessionId);
    if (!cached || cached.validBytes !== cached.size || cached.listing.lastSeq + 1 !== fromSeq) return undefined;
    const path = journalPath(sessionId);
    let fd: number | undefined;
    try {
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats) throw new SessionNotFoundError(sessionId);
      if (stats.ino !== cached.ino || stats.size < cached.size) return undefined;
      if (sameState(cached, stats)) return [];
      fd = openSync(path, "r");
      const key = fileKey(fstatSync(fd));
      if (key.ino !== cached.ino || key.size < cached.size) return undefined;
      const buf = Buffer.allocUnsafe(key.size - cached.validBytes);
      let n = 0;
      while (n < buf.length) {
        const bytesRead = readSync(fd, buf, n, buf.length - n, cached.validBytes + n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      const decoded = decodeAppended(buf.subarray(0, n), sessionId, fromSeq);
      if (!decoded) return undefined;
      const listing = { ...cached.listing };
      for (const entry of decoded.entries) foldEntry(listing, entry);
      const validBytes = cached.validBytes + decoded.validBytes;
      cache.set(sessionId, { listing, validBytes, ...key, size: cached.validBytes + n });
      return decoded.entries;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** A session's description from a stat (and a read of what changed); undefined when it is gone. */
  function describeSync(id: string): SessionInfo | undefined {
    const path = journalPath(id);
    try {
      const key = fileKey(statSync(path));
      const info = toSessionInfo(id, cache.refreshSync(id, path, key).listing);
      const corrupt = knownCorrupt(id, key);
      return corrupt ? { ...info, corrupt } : info;
    } catch (error) {
      if (hasCode(error, "ENOENT")) return undefined;
      // A journal whose listing cannot be read is still listed, marked (opening it throws the same error).
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats) return undefined;
      const info: SessionInfo = { id, createdAt: stats.birthtime.toISOString(), updatedAt: stats.mtime.toISOString(), turnCount: 0 };
      if (JournalCorruptError.isInstance(error)) info.corrupt = { line: error.line, detail: error.detail };
      return info;
    }
  }
}
