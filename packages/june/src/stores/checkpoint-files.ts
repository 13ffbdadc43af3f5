import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { CheckpointUnreadableError } from "./errors.js";
import { syncDirectory } from "./file-journal.js";
import { hasCode } from "./lock-file.js";
import type { StoredCheckpoint } from "./types.js";

const EXT = ".checkpoint.json";

/**
 * A file store's checkpoints: one file per unfinished durable turn in `<dir>/<sessionId>.checkpoints/`,
 * readable by its owner only. A write goes to a temporary file of its own, is flushed (fsync) and renamed
 * into place, and the folder is flushed: a reader sees the old checkpoint or the new one, never a torn one,
 * and two writers never mix. A temporary file left by a crash is ignored and swept at the next write.
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
    const tmp = join(dir, `.${turnId}.${randomUUID()}.tmp`);
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
      const stored = await this.get(sessionId, name.slice(0, -EXT.length));
      if (stored) found.push(stored);
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
