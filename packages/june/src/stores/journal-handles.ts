import { fstatSync, statSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { SessionNotFoundError } from "./errors.js";
import { hasCode } from "./error-code.js";

/** How long a journal stays open after its last append. */
const IDLE_CLOSE_MS = 10_000;
/** How many journals stay open at most (file descriptors are limited: 256 by default on macOS). */
const MAX_KEPT = 32;

interface KeptHandle {
  fh: FileHandle;
  /** The inode it is open on: a journal deleted and created again is another file. */
  ino: number;
  users: number;
  /** No longer handed out: closed once its last user is done. */
  retired: boolean;
  idle?: NodeJS.Timeout;
}

/**
 * The open journals of a file store, one handle per session, kept between appends (a turn appends two to
 * four times) so that an append does not open and close its journal through the thread pool each time.
 *
 * Each use checks the journal's path first: gone is `SessionNotFoundError`, another inode (deleted and
 * created again, by any process) opens the new file. A handle is closed `idleMs` (10 s) after its last use
 * (an unref'd timer: it never keeps a process alive), on `retire` (the store deletes the session) and on
 * `closeAll` (the store's `close()`), and the least recently used beyond `maxKept` (32) open, never while in use. (An inode number is not reused while a handle on it
 * is open, so an equal inode is the same file.) On Windows a journal deleted by another process while open
 * here keeps its name until the handle closes (10 s after this store last appended to it): creating that
 * session id again fails until then.
 */
export class JournalHandles {
  readonly #kept = new Map<string, KeptHandle>();
  readonly #idleMs: number;
  readonly #maxKept: number;

  /**
   * @param idleMs how long a journal stays open after its last use
   * @param maxKept how many journals stay open at most
   */
  constructor(idleMs = IDLE_CLOSE_MS, maxKept = MAX_KEPT) {
    this.#idleMs = idleMs;
    this.#maxKept = maxKept;
  }

  /**
   * Runs `task` with an open read-write handle on the journal at `path` and that journal's current stats.
   * Calls for one session must not overlap (the store queues them); `SessionNotFoundError` when there is no
   * journal.
   */
  async use<T>(sessionId: string, path: string, task: (fh: FileHandle, stats: Stats) => Promise<T>): Promise<T> {
    let stats: Stats;
    let kept = this.#kept.get(sessionId);
    try {
      stats = statSync(path);
    } catch (error) {
      if (kept) void this.#retire(sessionId, kept);
      if (hasCode(error, "ENOENT")) throw new SessionNotFoundError(sessionId);
      throw error;
    }
    if (kept && kept.ino !== stats.ino) {
      void this.#retire(sessionId, kept);
      kept = undefined;
    }
    if (!kept) {
      let fh: FileHandle;
      try {
        fh = await open(path, "r+");
      } catch (error) {
        if (hasCode(error, "ENOENT")) throw new SessionNotFoundError(sessionId);
        throw error;
      }
      // The file opened is the one to describe (it may have been replaced since the stat above).
      stats = fstatSync(fh.fd);
      kept = { fh, ino: stats.ino, users: 0, retired: false };
      const previous = this.#kept.get(sessionId);
      if (previous) void this.#retire(sessionId, previous);
      this.#kept.set(sessionId, kept);
      kept.users++;
      this.#trim();
    } else {
      // Most recently used last (a Map keeps insertion order): `#trim` closes from the front.
      this.#kept.delete(sessionId);
      this.#kept.set(sessionId, kept);
      kept.users++;
    }
    try {
      return await task(kept.fh, stats);
    } finally {
      kept.users--;
      this.#idle(sessionId, kept);
    }
  }

  /** Closes the session's journal (once its current use, if any, is done): it is being deleted. */
  retire(sessionId: string): void {
    const kept = this.#kept.get(sessionId);
    if (kept) void this.#retire(sessionId, kept);
  }

  /** Closes every journal not in use now; those in use close when their use ends. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#kept].map(([sessionId, kept]) => this.#retire(sessionId, kept)));
  }

  /** How many journals are open (for tests). */
  get size(): number {
    return this.#kept.size;
  }

  /** Closes the least recently used journals not in use while more than `maxKept` are open. */
  #trim(): void {
    if (this.#kept.size <= this.#maxKept) return;
    for (const [sessionId, kept] of this.#kept) {
      if (this.#kept.size <= this.#maxKept) return;
      if (kept.users === 0) void this.#retire(sessionId, kept);
    }
  }

  /** Stops handing `kept` out; closes it now if unused (the promise), else when its use ends. */
  #retire(sessionId: string, kept: KeptHandle): Promise<void> | undefined {
    if (this.#kept.get(sessionId) === kept) this.#kept.delete(sessionId);
    kept.retired = true;
    if (kept.idle !== undefined) clearTimeout(kept.idle);
    return kept.users === 0 ? kept.fh.close().catch(() => undefined) : undefined;
  }

  #idle(sessionId: string, kept: KeptHandle): void {
    if (kept.users > 0) return;
    if (kept.retired) {
      void kept.fh.close().catch(() => undefined);
      return;
    }
    if (kept.idle !== undefined) {
      kept.idle.refresh();
      return;
    }
    kept.idle = setTimeout(() => {
      if (kept.users === 0) void this.#retire(sessionId, kept);
    }, this.#idleMs);
    kept.idle.unref();
  }
}
