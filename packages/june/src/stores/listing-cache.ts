import { randomUUID } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open, readFile, rename, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { JournalCorruptError } from "./errors.js";
import { scanListing, type ScannedListing } from "./listing-scan.js";
import type { SessionListing } from "./session-listing.js";

/** What identifies one state of a journal file: it only grows, so a size change means new entries. */
export interface FileKey {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** A session's listing and the state of the file it was computed from. */
export interface CachedListing extends ScannedListing, FileKey {}

/** The file that keeps listings across processes: a cache, rebuilt from the journals when missing. */
export const INDEX_FILE = ".sessions-index.json";
// 2: entries keep `listing` (was `summary`); an index of another version is ignored and rebuilt.
const INDEX_VERSION = 2;

/**
 * The `mtimeMs` of a journal state this store wrote itself without a stat after the write: its inode and size
 * are known (the bytes written after the readable length it checked), and since a journal only grows, the same
 * inode and size found later are that state (its mtime is then taken from that stat).
 */
export const MTIME_UNKNOWN = -1;

/** Whether `key` (stats just taken) is the state `cached` describes (see `MTIME_UNKNOWN`). */
export function sameState(cached: FileKey, key: FileKey): boolean {
  if (cached.ino !== key.ino || cached.size !== key.size) return false;
  if (cached.mtimeMs === key.mtimeMs) return true;
  if (cached.mtimeMs !== MTIME_UNKNOWN) return false;
  cached.mtimeMs = key.mtimeMs;
  return true;
}

export function fileKey(stats: Stats): FileKey {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

/**
 * Per-session listings (`listSessions`, `getSession`, the last seq for `append`) of a file store,
 * checked against each journal's inode, size and mtime before use and brought up to date by reading only the
 * bytes appended since (by any process). Persisted in `dir/.sessions-index.json` so that a new process
 * lists thousands of sessions with one stat each.
 */
export class ListingCache {
  private readonly entries = new Map<string, CachedListing>();
  private dirty = false;
  private loaded = false;

  constructor(private readonly dir: string) {}

  get(id: string): CachedListing | undefined {
    return this.entries.get(id);
  }

  set(id: string, cached: CachedListing): void {
    this.entries.set(id, cached);
    this.dirty = true;
  }

  delete(id: string): void {
    if (this.entries.delete(id)) this.dirty = true;
  }

  /** Drops the listings of sessions that are not in `ids`. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.delete(id);
  }

  /** The listing of the journal in state `key`, reading through `fh` only what the cache lacks. */
  async refresh(id: string, fh: FileHandle, key: FileKey): Promise<CachedListing> {
    const fresh = this.fresh(id, key);
    if (fresh) return fresh;
    const read = async (from: number) => {
      const buf = Buffer.allocUnsafe(Math.max(0, key.size - from));
      let n = 0;
      while (n < buf.length) {
        const { bytesRead } = await fh.read(buf, n, buf.length - n, from + n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return buf.subarray(0, n);
    };
    const base = this.incrementalBase(id, key);
    if (base) {
      const scanned = this.scan(id, key, await read(base.validBytes), base);
      if (scanned) return scanned;
    }
    return this.scan(id, key, await read(0))!;
  }

  /** `refresh` with blocking reads, for listing many small files (each async call is a thread-pool round trip). */
  refreshSync(id: string, path: string, key: FileKey): CachedListing {
    const fresh = this.fresh(id, key);
    if (fresh) return fresh;
    const fd = openSync(path, "r");
    try {
      return this.refreshFd(id, fd, fileKey(fstatSync(fd)));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The listing of the journal open as `fd`, in state `key` (its current stats), with blocking reads of only
   * what the cache lacks: none when the journal is as last seen, the appended bytes when it grew.
   */
  refreshFd(id: string, fd: number, key: FileKey): CachedListing {
    const fresh = this.fresh(id, key);
    if (fresh) return fresh;
    const read = (from: number) => {
      const buf = Buffer.allocUnsafe(Math.max(0, key.size - from));
      let n = 0;
      while (n < buf.length) {
        const bytesRead = readSync(fd, buf, n, buf.length - n, from + n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return buf.subarray(0, n);
    };
    const base = this.incrementalBase(id, key);
    if (base) {
      const scanned = this.scan(id, key, read(base.validBytes), base);
      if (scanned) return scanned;
    }
    return this.scan(id, key, read(0))!;
  }

  private fresh(id: string, key: FileKey): CachedListing | undefined {
    const c = this.entries.get(id);
    const same = c !== undefined && sameState(c, key);
    // A journal with a torn tail may be cut and appended to in the same mtime tick: always look again.
    return same && c.validBytes === c.size ? c : undefined;
  }

  /** A listing to extend with the bytes appended since: same file, not shorter. */
  private incrementalBase(id: string, key: FileKey): CachedListing | undefined {
    const c = this.entries.get(id);
    return c && c.ino === key.ino && key.size >= c.size ? c : undefined;
  }

  /** Scans `buf` (after `base`, or the whole journal) and caches the result. With `base`, undefined when the
   *  appended part cannot be read on its own (the caller then scans the whole journal, which names the error). */
  private scan(id: string, key: FileKey, buf: Buffer, base?: CachedListing): CachedListing | undefined {
    let scanned: ScannedListing;
    try {
      scanned = scanListing(buf, id, base && { listing: base.listing, validBytes: base.validBytes });
    } catch (error) {
      if (base && JournalCorruptError.isInstance(error)) return undefined;
      throw error;
    }
    const cached: CachedListing = { ...scanned, ...key };
    this.set(id, cached);
    return cached;
  }

  /** Loads the persisted listings once; a missing or unreadable index is rebuilt from the journals. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(join(this.dir, INDEX_FILE), "utf8"));
    } catch {
      return;
    }
    const sessions = (parsed as { version?: unknown; sessions?: unknown })?.sessions;
    if ((parsed as { version?: unknown }).version !== INDEX_VERSION || typeof sessions !== "object" || !sessions) return;
    for (const [id, value] of Object.entries(sessions)) {
      if (!this.entries.has(id) && isCachedListing(value)) this.entries.set(id, value);
    }
  }

  /** Writes the listings if they changed (atomically: a temp file renamed over the index). Best effort. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const tmp = join(this.dir, `.sessions-index.${randomUUID()}.tmp`);
    try {
      await writeFile(tmp, JSON.stringify({ version: INDEX_VERSION, sessions: Object.fromEntries(this.entries) }));
      await rename(tmp, join(this.dir, INDEX_FILE));
    } catch {
      this.dirty = true;
      await unlink(tmp).catch(() => undefined);
    }
  }
}

/** Opens `path` read-only and returns the listing of its current state. */
export async function readListing(cache: ListingCache, id: string, path: string): Promise<CachedListing> {
  const fh = await open(path, "r");
  try {
    return await cache.refresh(id, fh, fileKey(await fh.stat()));
  } finally {
    await fh.close();
  }
}

function isCachedListing(value: unknown): value is CachedListing {
  const v = value as Partial<CachedListing> | null;
  const s = v?.listing as Partial<SessionListing> | undefined;
  return (
    typeof v?.ino === "number" &&
    typeof v.size === "number" &&
    typeof v.mtimeMs === "number" &&
    typeof v.validBytes === "number" &&
    typeof s?.createdAt === "string" &&
    typeof s.updatedAt === "string" &&
    typeof s.turnCount === "number" &&
    typeof s.lastSeq === "number"
  );
}
