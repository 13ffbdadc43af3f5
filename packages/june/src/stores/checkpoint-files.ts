import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { CheckpointUnreadableError, isSessionId } from "./errors.js";
import { syncDirectory } from "./file-journal.js";
import { isProcessAlive, processStartedAt } from "./lock-file.js";
import { hasCode } from "./error-code.js";
import type { StoredCheckpoint } from "./types.js";

const EXT = ".checkpoint.json";
const DIR_EXT = ".checkpoints";
/** A temporary file of a write: `.<turnId>.<pid>.<random>.tmp` (older Junes wrote no pid). */
const TEMPORARY = /^\.[A-Za-z0-9_-]+\.(?:(\d+)\.)?[0-9a-f-]{36}\.tmp$/;
/** A temporary file with no pid in its name is left alone this long (a write of an older June under way). */
const UNNAMED_GRACE_MS = 60_000;
/** A temporary file this old is a leftover whatever its pid says (a pid used again by another process). */
const STALE_MS = 10 * 60_000;

/**
 * What a sweep needs to know of a session's journal: the turns that ended (their checkpoints go), `"gone"` when
 * the session is (its checkpoints go with it), or undefined when it cannot tell (a damaged journal: kept).
 */
export type JournalEnds = ReadonlySet<string> | "gone" | undefined;

/**
 * A file store's checkpoints: one file per unfinished durable turn in `<dir>/<sessionId>.checkpoints/`,
 * readable by its owner only. A write goes to a temporary file of its own, is flushed (fsync) and renamed
 * into place, and the folder is flushed: a reader sees the old checkpoint or the new one, never a torn one,
 * and two writers never mix. A temporary file left by a crash (it may hold a tool's input) is ignored, and
 * swept when the store opens (`sweep`) and at the session's next write. So is a checkpoint whose turn ended
 * (a crash between the journal's `turn-end` and the delete) or whose session is gone.
 */
export class CheckpointFiles {
  readonly #root: string;
  readonly #fsync: boolean;

  constructor(root: string, fsync: boolean) {
    this.#root = root;
    this.#fsync = fsync;
  }

  dir(sessionId: string): string {
    return join(this.#root, `${sessionId}.checkpoints`);
  }

  async put(sessionId: string, turnId: string, data: string): Promise<void> {
    const dir = this.dir(sessionId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const stored: StoredCheckpoint = { turnId, data, updatedAt: new Date().toISOString() };
    const tmp = join(dir, `.${turnId}.${process.pid}.${randomUUID()}.tmp`);
    const handle = await open(tmp, "wx", 0o600);
    try {
      await handle.writeFile(JSON.stringify(stored));
      if (this.#fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(tmp, join(dir, `${turnId}${EXT}`));
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
    if (this.#fsync) await syncDirectory(dir);
    await this.#sweepTemporary(dir, await readdir(dir).catch(() => []));
  }

  /**
   * Removes what a crash left (when the store opens): temporary files of writers that are gone, the
   * checkpoints of turns that ended (`ends`), and those of sessions that are gone.
   */
  async sweep(ends: (sessionId: string) => Promise<JournalEnds>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.#root);
    } catch (error) {
      if (hasCode(error, "ENOENT")) return;
      throw error;
    }
    for (const name of names) {
      if (!name.endsWith(DIR_EXT)) continue;
      const sessionId = name.slice(0, -DIR_EXT.length);
      if (!isSessionId(sessionId)) continue;
      const dir = join(this.#root, name);
      const inside = await readdir(dir).catch(() => [] as string[]);
      await this.#sweepTemporary(dir, inside);
      const turnIds = inside.filter((n) => n.endsWith(EXT) && !n.startsWith(".")).map((n) => n.slice(0, -EXT.length));
      if (turnIds.length === 0) continue;
      const ended = await ends(sessionId);
      if (ended === "gone") await rm(dir, { recursive: true, force: true });
      else if (ended) for (const turnId of turnIds) if (ended.has(turnId)) await this.delete(sessionId, turnId);
    }
  }

  /** Removes the temporary files among `names` whose writer is gone (it died between write and rename). */
  async #sweepTemporary(dir: string, names: readonly string[]): Promise<void> {
    for (const name of names) {
      const match = TEMPORARY.exec(name);
      if (!match) continue;
      const path = join(dir, name);
      if (!(await leftByGoneWriter(path, match[1] === undefined ? undefined : Number(match[1])))) continue;
      await unlink(path).catch(() => undefined); // removed by another store meanwhile
    }
  }

  async get(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined> {
    let text: string;
    try {
      text = await readFile(join(this.dir(sessionId), `${turnId}${EXT}`), "utf8");
    } catch (error) {
      if (hasCode(error, "ENOENT")) return undefined;
      throw error;
    }
    return parse(sessionId, turnId, text);
  }

  async list(sessionId: string): Promise<StoredCheckpoint[]> {
    let names: string[];
    try {
      names = await readdir(this.dir(sessionId));
    } catch (error) {
      if (hasCode(error, "ENOENT")) return [];
      throw error;
    }
    const found: StoredCheckpoint[] = [];
    for (const name of names) {
      if (!name.endsWith(EXT) || name.startsWith(".")) continue;
      const turnId = name.slice(0, -EXT.length);
      try {
        const stored = await this.get(sessionId, turnId);
        if (stored) found.push(stored);
      } catch (error) {
        if (!CheckpointUnreadableError.isInstance(error)) throw error;
        // Listed with why, so that only its turn is affected (it can be canceled); dated by its file.
        const mtime = await stat(join(this.dir(sessionId), name)).then((s) => s.mtime.toISOString(), () => new Date(0).toISOString());
        found.push({ turnId, data: "", updatedAt: mtime, unreadable: error.detail });
      }
    }
    return found.sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0));
  }

  async delete(sessionId: string, turnId: string): Promise<boolean> {
    try {
      await unlink(join(this.dir(sessionId), `${turnId}${EXT}`));
    } catch (error) {
      if (hasCode(error, "ENOENT")) return false;
      throw error;
    }
    if (this.#fsync) await syncDirectory(this.dir(sessionId)).catch(() => undefined);
    return true;
  }

  /** Removes a session's checkpoints with the session. */
  async deleteAll(sessionId: string): Promise<void> {
    await rm(this.dir(sessionId), { recursive: true, force: true });
  }
}

/**
 * True when the temporary file's writer is gone: a dead pid, ours from before this process started, or a file
 * older than any write takes.
 */
async function leftByGoneWriter(path: string, pid: number | undefined): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats) return false;
  const age = Date.now() - stats.mtimeMs;
  if (age > STALE_MS) return true;
  if (pid === undefined) return age > UNNAMED_GRACE_MS;
  if (pid === process.pid) return stats.mtimeMs < processStartedAt();
  return !isProcessAlive(pid);
}

function parse(sessionId: string, turnId: string, text: string): StoredCheckpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CheckpointUnreadableError(sessionId, turnId, "its file is not valid JSON (damaged)", { cause: error });
  }
  const stored = value as Partial<StoredCheckpoint> | null;
  if (typeof stored !== "object" || stored === null || stored.turnId !== turnId || typeof stored.data !== "string" || typeof stored.updatedAt !== "string") {
    throw new CheckpointUnreadableError(sessionId, turnId, "its file does not hold this turn's checkpoint");
  }
  return { turnId, data: stored.data, updatedAt: stored.updatedAt };
}
