import { fstatSync, ftruncateSync, unlinkSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionBusyError, SessionNotFoundError } from "./errors.js";
import { decodeJournal, encodeBatch, type DecodedJournal } from "./journal-codec.js";
import type { JournalHandles } from "./journal-handles.js";
import { hasCode, tryLock, unlock } from "./lock-file.js";
import { conflict } from "./store-helpers.js";
import { fileKey, type CachedSummary, type FileKey } from "./summary-cache.js";

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
  /** The journal's summary in state `key` (last seq and readable length), read from `fd` as needed. */
  lastState: (fd: number, key: FileKey) => CachedSummary;
}

export interface JournalAppendResult {
  /** The journal before the append. */
  before: CachedSummary;
  /** Readable length after the append. */
  validBytes: number;
  key: FileKey;
}

/**
 * Appends whole lines to a journal in one write, under the journal's lock file (`<journal>.append.lock`) so
 * that processes sharing the directory append one at a time. The journal's actual last seq is checked under
 * the lock (`ConflictError` when it is not `expectedSeq`): from the cached summary when the file's inode, size
 * and mtime are as last seen, else by reading what changed. A torn tail is cut off first.
 *
 * The journal stays open between appends (`handles`); the small calls (lock file, stat, write) are
 * synchronous, a few microseconds each, and only the flush (`sync`) waits on the thread pool.
 */
export async function appendToJournal(request: JournalAppend): Promise<JournalAppendResult> {
  const { sessionId, path } = request;
  const lockPath = `${path}.append.lock`;
  const token = await lockJournal(sessionId, lockPath);
  const lockedAt = Date.now();
  try {
    return await request.handles.use(sessionId, path, async (fh, stats) => {
      const key = fileKey(stats);
      const before = request.lastState(fh.fd, key);
      if (before.summary.lastSeq !== request.expectedSeq) {
        throw conflict(sessionId, request.expectedSeq, before.summary.lastSeq);
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
      const after = fileKey(fstatSync(fh.fd));
      if (request.sync) await fh.datasync();
      return { before, validBytes: before.validBytes + bytes.length, key: after };
    });
  } finally {
    // Well within its TTL nobody may take our lock over, so it is still ours: remove it without checking.
    if (Date.now() - lockedAt < JOURNAL_LOCK_TTL_MS / 2) {
      try {
        unlinkSync(lockPath);
      } catch {
        // gone already (the session was deleted)
      }
    } else await unlock(lockPath, token);
  }
}

/** Reads and decodes a whole journal in one read; `SessionNotFoundError` when there is none. */
export async function readJournal(
  sessionId: string,
  path: string,
  fromSeq: number,
): Promise<{ decoded: DecodedJournal; key: FileKey }> {
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
    return { decoded: decodeJournal(buf.subarray(0, n), sessionId, fromSeq, path), key: { ...key, size: n } };
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
      throw new SessionBusyError(sessionId, `its journal stayed locked by process ${attempt.owner?.pid ?? "?"}`);
    }
    await sleep(delay);
  }
}
