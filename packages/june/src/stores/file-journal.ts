import { ftruncateSync, unlinkSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionBusyError, SessionNotFoundError } from "./errors.js";
import { decodeJournal, encodeBatch, type DecodedJournal } from "./journal-codec.js";
import type { JournalHandles } from "./journal-handles.js";
import { existsSync } from "node:fs";
import { liveOwner, tryLock, unlock } from "./lock-file.js";
import { hasCode } from "./error-code.js";
import { conflict } from "./store-helpers.js";
import { MTIME_UNKNOWN, fileKey, type CachedListing, type FileKey } from "./listing-cache.js";

/** How long an append waits for another writer of the same journal before giving up. */
const JOURNAL_LOCK_WAIT_MS = 10_000;
/** A journal lock older than this is taken over even if its owner lives (a write takes milliseconds). */
const JOURNAL_LOCK_TTL_MS = 30_000;

export interface JournalAppend {
  sessionId: string;
  path: string;
  expectedSeq: number;
  /** Entries as JSON texts, `seq` from `expectedSeq + 1`. */
  lines: readonly string[];
  /** `datasync` before returning. */
  sync: boolean;
  /** The store's open journals. */
  handles: JournalHandles;
  /** The journal's listing in state `key` (last seq and readable length), read from `fd` as needed. */
  lastState: (fd: number, key: FileKey) => CachedListing;
  /**
   * This store holds the session's turn lease (well within its expiry): no other writer may append now (see
   * `appendToJournal`), so no journal lock is taken.
   */
  leased: boolean;
  /** The session's lease file, which a writer without the lease respects. */
  leasePath: string;
  /** True for the token of a lease this store holds. */
  ownsLease: (token: string) => boolean;
  /** Called once the lines are written, before they are flushed (the turn's end releases its lease there). */
  afterWrite?: () => Promise<void>;
}

export interface JournalAppendResult {
  /** The journal before the append. */
  before: CachedListing;
  /** Readable length after the append. */
  validBytes: number;
  key: FileKey;
}

/**
 * Appends whole lines to a journal in one write. Writers take turns by two lock files: the session's turn
 * lease (`<id>.lock`) and the journal's lock (`<journal>.append.lock`). While this store holds the lease, its
 * appends (a turn's start, steers, approvals, its end) take no lock of their own: a writer without the lease
 * takes the journal lock, then looks at the lease and, when someone else holds it, drops the lock and waits
 * (up to 10 s, then `SessionBusyError`) for the lease to go; and `acquireTurn`, once it has the lease, waits for
 * a journal lock taken before it (`waitForJournalWriters`). So a writer without the lease writes only when no
 * lease is held or it saw none before a lease was taken, and the lease's holder starts writing only after it.
 * The journal's actual last seq is checked (`ConflictError` when it is not `expectedSeq`): from the cached
 * listing when the file's inode, size and mtime are as last seen, else by reading what changed. A torn tail is
 * cut off first.
 *
 * The journal stays open between appends (`handles`); the small calls (lock file, stat, write) are
 * synchronous, a few microseconds each, and only the flush (`sync`) waits on the thread pool.
 */
export async function appendToJournal(request: JournalAppend): Promise<JournalAppendResult> {
  const { path } = request;
  if (request.leased) return write(request);
  const lockPath = `${path}.append.lock`;
  const { token, lockedAt } = await lockJournalOutsideLease(request, lockPath);
  try {
    return await write(request);
  } finally {
    await dropJournalLock(lockPath, token, lockedAt);
  }
}

/** Waits until no writer holds the journal's lock (taken before the caller's lease was), then goes on. */
export async function waitForJournalWriters(sessionId: string, path: string): Promise<void> {
  const lockPath = `${path}.append.lock`;
  if (!existsSync(lockPath)) return;
  const token = await lockJournal(sessionId, lockPath);
  await dropJournalLock(lockPath, token, Date.now());
}

/** The journal lock, held while nobody else holds the session's lease (see `appendToJournal`). */
async function lockJournalOutsideLease(request: JournalAppend, lockPath: string): Promise<{ token: string; lockedAt: number }> {
  const deadline = Date.now() + JOURNAL_LOCK_WAIT_MS;
  for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
    const token = await lockJournal(request.sessionId, lockPath);
    const lockedAt = Date.now();
    const holder = liveOwner(request.leasePath);
    if (holder === undefined || request.ownsLease(holder.token)) return { token, lockedAt };
    await dropJournalLock(lockPath, token, lockedAt);
    if (Date.now() > deadline) {
      throw new SessionBusyError(request.sessionId, undefined, { holder: `its turn lease is held by process ${holder.pid || "?"}, which may be writing` });
    }
    await sleep(delay);
  }
}

async function dropJournalLock(lockPath: string, token: string, lockedAt: number): Promise<void> {
  // Well within its TTL nobody may take our lock over, so it is still ours: remove it without checking.
  if (Date.now() - lockedAt < JOURNAL_LOCK_TTL_MS / 2) {
    try {
      unlinkSync(lockPath);
    } catch {
      // gone already (the session was deleted)
    }
  } else await unlock(lockPath, token);
}

async function write(request: JournalAppend): Promise<JournalAppendResult> {
  const { sessionId, path } = request;
  return request.handles.use(sessionId, path, async (fh, stats) => {
    const key = fileKey(stats);
    const before = request.lastState(fh.fd, key);
    if (before.listing.lastSeq !== request.expectedSeq) {
      throw conflict(sessionId, request.expectedSeq, before.listing.lastSeq);
    }
    if (request.lines.length === 0) return { before, validBytes: before.validBytes, key };
    const bytes = encodeBatch(request.lines);
    if (key.size > before.validBytes) ftruncateSync(fh.fd, before.validBytes);
    try {
      let written = 0;
      while (written < bytes.length) {
        written += writeSync(fh.fd, bytes, written, bytes.length - written, before.validBytes + written);
      }
    } catch (error) {
      try {
        ftruncateSync(fh.fd, before.validBytes);
      } catch {
        // the write's error is the one to report
      }
      throw error;
    }
    // The state written, without a stat: the same inode, the bytes after the readable length (see MTIME_UNKNOWN).
    const validBytes = before.validBytes + bytes.length;
    const after: FileKey = { ino: key.ino, size: validBytes, mtimeMs: MTIME_UNKNOWN };
    if (request.afterWrite) await request.afterWrite();
    if (request.sync) await fh.datasync();
    return { before, validBytes, key: after };
  });
}

/** Reads and decodes a whole journal in one read; `SessionNotFoundError` when there is none. */
export async function readJournal(
  sessionId: string,
  path: string,
  fromSeq: number,
): Promise<{ decoded: DecodedJournal; key: FileKey }> {
  const { buf, key } = await readJournalBytes(sessionId, path);
  return { decoded: decodeJournal(buf, sessionId, fromSeq, path), key };
}

/** A whole journal's bytes in one read, and the state of the file read; `SessionNotFoundError` when there is none. */
export async function readJournalBytes(sessionId: string, path: string): Promise<{ buf: Buffer; key: FileKey }> {
  const fh = await openJournal(sessionId, path, "r");
  try {
    const key = fileKey(await fh.stat());
    const buf = Buffer.allocUnsafe(key.size);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return { buf: buf.subarray(0, n), key: { ...key, size: n } };
  } finally {
    await fh.close();
  }
}

/** Flushes a directory's entries (a new file's name) to disk; a no-op where directories cannot be synced. */
export async function syncDirectory(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, "r");
    await fh.sync();
  } catch {
    // Some platforms (Windows) and file systems refuse to open or sync a directory.
  } finally {
    await fh?.close();
  }
}

async function openJournal(sessionId: string, path: string, flags: string): Promise<FileHandle> {
  try {
    return await open(path, flags);
  } catch (error) {
    if (hasCode(error, "ENOENT")) throw new SessionNotFoundError(sessionId);
    throw error;
  }
}

async function lockJournal(sessionId: string, lockPath: string): Promise<string> {
  const deadline = Date.now() + JOURNAL_LOCK_WAIT_MS;
  for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
    let attempt;
    try {
      attempt = await tryLock(lockPath, { ttlMs: JOURNAL_LOCK_TTL_MS });
    } catch (error) {
      if (hasCode(error, "ENOENT")) throw new SessionNotFoundError(sessionId); // no directory
      throw error;
    }
    if (attempt.acquired) return attempt.token;
    if (Date.now() > deadline) {
      throw new SessionBusyError(sessionId, undefined, { holder: `its journal stayed locked by process ${attempt.owner?.pid ?? "?"}` });
    }
    await sleep(delay);
  }
}
