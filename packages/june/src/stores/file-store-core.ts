import { randomUUID } from "node:crypto";
import { memoryMethodsOf } from "./memory-records.js";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { link, mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { CheckpointFiles, type JournalEnds } from "./checkpoint-files.js";
import { shareEventLoop } from "./event-loop-share.js";
import {
  ConflictError,
  JournalCorruptError,
  SessionNotFoundError,
  assertSessionId,
  isSessionId,
} from "./errors.js";
import { appendToJournal, readJournal, readJournalBytes, syncDirectory } from "./file-journal.js";
import { EntryLine, brandStore, decodeJournalForOpen, type OpenedJournal } from "./journal-open.js";
import { decodeAppended, encodeBatch } from "./journal-codec.js";
import { prepareSessionEntry } from "./journal-entries.js";
import { JournalHandles } from "./journal-handles.js";
import { KnownTurns } from "./known-turns.js";
import { withinHalfTtl } from "./lock-file.js";
import { hasCode } from "./error-code.js";
import { checkListOptions, foldEntry, pageSessions, startListing, toSessionInfo } from "./session-listing.js";
import { checkCheckpointArgs, checkFromSeq } from "./store-helpers.js";
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
import { fileLeases } from "./file-leases.js";
import { fileMemory } from "./file-memory.js";


const JOURNAL_EXT = ".jsonl";

/** Sessions listed per slice of `listSessions` before yielding to the event loop. */
const LIST_SLICE = 256;

/**
 * The file store itself (see `fileStore`, which loads this module on a store's first call).
 * @param dir The directory of the journals, resolved.
 */
export function fileStoreCore(dir: string, options: FileStoreOptions = {}): ChatStore {
  const root = resolve(dir);
  const fsync = options.fsync ?? true;
  const cache = new ListingCache(root);
  const queues = new Map<string, Promise<unknown>>();
  const handles = new JournalHandles();
  const checkpoints = new CheckpointFiles(root, fsync);
  const files = new FileBlobs(root, fsync);
  const known = new KnownTurns();
  const memory = fileMemory(root, fsync);
  // What a crash left of checkpoints goes before any checkpoint is read (see `CheckpointFiles.sweep`).
  const swept = checkpoints.sweep(journalEnds).catch(() => undefined);
  /**
   * Journals a read found corrupt where a listing's scan cannot see it (a line in the middle), by id, with
   * the file's state then: listings mark them until the file changes.
   */
  const corrupted = new Map<string, { key: FileKey; corrupt: NonNullable<SessionInfo["corrupt"]> }>();

  // Session ids are checked names (no separator, no dot): the same paths as `join`'s, without its normalizing.
  const prefix = root.endsWith(sep) ? root : root + sep;
  const journalPath = (id: string) => prefix + id + JOURNAL_EXT;
  const leasePath = (id: string) => `${prefix}${id}.lock`;
  const leases = fileLeases({ root, journalPath, leasePath, queues, queued, exists });

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
      await memory.forgetSession(id);
      cache.delete(id);
      return existed;
    },

    async append(sessionId: string, entries: NewJournalEntry[], opts: AppendOptions): Promise<JournalEntry[]> {
      const share = shareEventLoop();
      if (share) await share;
      const { expectedSeq, prepared, deleteCheckpoint } = checkAppend(sessionId, entries, opts);
      const linked = known.check(sessionId, prepared.entries, () => startedTurns(sessionId));
      if (linked) await linked;
      // The turn's end releases its lease once written, while the flush runs (`releaseWithAppend`).
      const ending = opts?.endsLease?.sessionId === sessionId ? opts.endsLease.token : undefined;
      return queued(sessionId, async () => {
        const lease = leases.held(sessionId);
        const written = await appendToJournal({
          afterWrite: lease !== undefined && lease.token === ending ? () => leases.releaseWithAppend(sessionId, lease) : undefined,
          leased: lease !== undefined && withinHalfTtl(lease.takenAt, lease.ttlMs),
          leasePath: leasePath(sessionId),
          ownsLease: leases.ownsLease,
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

    ...memoryMethodsOf(memory),

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

    acquireTurn: (sessionId: string, opts?: { ttlMs?: number }) => leases.acquire(sessionId, opts),
    releaseTurn: (lease: TurnLease) => leases.release(lease),

    /** Closes the journals this store keeps open between appends; the store stays usable (it reopens them). */
    async close(): Promise<void> {
      await swept;
      await handles.closeAll();
      await leases.close();
    },
  };
  return brandStore(store, { open: openForSession });

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
