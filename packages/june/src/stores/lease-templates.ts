import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, linkSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isProcessAlive, processStartedAt } from "./lock-file.js";
import { hasCode } from "./error-code.js";

/** Free templates kept for reuse; past this many, a released one is removed (a burst of concurrent turns). */
const MAX_FREE = 64;
const NAME = /^\.lease-(\d+)-[0-9a-f]+-\d+$/;

/** A template: a file of this store's own, hard-linked as a lock while a lease holds it. */
export interface LeaseTemplate {
  path: string;
  fd: number;
  /** Bytes in the file (a shorter owner is padded with spaces: JSON allows them). */
  size: number;
  /** The file's inode and birth time: with `fd` open its inode is not reused, so they name this very file. */
  ino: number;
  birthtimeMs: number;
  /** This store unlinked its lock itself, after checking it was this file: no other name links it. */
  unlinked?: boolean;
}

/**
 * Lock files made by hard-linking a file this store wrote beforehand, rather than created and unlinked for
 * every lease: creating a file and unlinking it allocate and free an inode (70–300 µs of kernel time on
 * ext4 here), where rewriting a template in place and linking it as `<id>.lock` cost ~15 µs, and unlinking
 * the lock leaves the inode to the template. `link` fails when the lock exists, exactly as the exclusive
 * create did, so taking a lock stays atomic across processes, and a lock still holds its owner's JSON.
 *
 * The templates are hidden files beside the journals, `.lease-<pid>-<store>-<n>` (`store` random per instance
 * of this class), holding the last owner written: `close()` removes this store's; those a killed process left
 * are removed, in the background, by the next store to make one there (their pid is gone, or is this
 * process's but they were last written before it started).
 */
export class LeaseTemplates {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #free: LeaseTemplate[] = [];
  readonly #all = new Set<LeaseTemplate>();
  #next = 0;
  #sweep: Promise<void> | undefined;

  constructor(root: string) {
    this.#dir = root;
    this.#prefix = `.lease-${process.pid}-${randomBytes(4).toString("hex")}-`;
  }

  /**
   * Links a template holding `content` as the lock at `path`. Undefined when the lock exists (EEXIST, as
   * an exclusive create would say); throws what `link` throws otherwise (no directory: ENOENT).
   */
  link(path: string, content: string): LeaseTemplate | undefined {
    const template = this.#take();
    this.#write(template, content);
    try {
      linkSync(template.path, path);
    } catch (error) {
      this.giveBack(template);
      if (hasCode(error, "EEXIST")) return undefined;
      throw error;
    }
    return template;
  }

  /** Writes `content` over a template (padded with spaces to its size). Its size may grow. */
  #write(template: LeaseTemplate, content: string): void {
    const text = content.length < template.size ? content.padEnd(template.size) : content;
    // A string written as it is (no Buffer made for it); an owner's JSON is ASCII but for a host name.
    const length = Buffer.byteLength(text);
    let written = writeSync(template.fd, text, 0);
    if (written < length) written += writeSync(template.fd, Buffer.from(text).subarray(written), 0, length - written, written);
    template.size = Math.max(template.size, length);
  }

  /**
   * Takes back a template whose lock is gone (released, or taken over and removed by someone else).
   * `unlinked`: this store removed the lock itself right after a stat showed it was this very file (see
   * `unlockOwn`), so the template is known to have no other name and the next `link` need not look.
   */
  giveBack(template: LeaseTemplate, unlinked = false): void {
    template.unlinked = unlinked;
    if (!this.#all.has(template)) return;
    if (this.#free.length < MAX_FREE) this.#free.push(template);
    else this.#remove(template);
  }

  /** Removes this store's templates, once the sweep of those left by others is done (the store stays usable). */
  async close(): Promise<void> {
    await this.#sweep;
    for (const template of [...this.#all]) this.#remove(template);
    this.#free.length = 0;
  }

  /**
   * A template no lock links to now (one link: its own name): known so when its lock was removed by this store
   * (`giveBack(t, true)`), else looked at (another process may have linked it back after a rename aside).
   */
  #take(): LeaseTemplate {
    for (let template = this.#free.pop(); template !== undefined; template = this.#free.pop()) {
      if (template.unlinked || fstatSync(template.fd).nlink === 1) return template;
      // Still linked elsewhere (a contender's rename aside, for a moment): let it go.
      this.#all.delete(template);
      closeSync(template.fd);
    }
    this.#sweep ??= this.#sweepLeftovers().catch(() => undefined);
    let path: string;
    let fd: number | undefined;
    do {
      path = join(this.#dir, `${this.#prefix}${this.#next++}`);
      try {
        fd = openSync(path, "wx+");
      } catch (error) {
        if (!hasCode(error, "EEXIST")) throw error;
      }
    } while (fd === undefined);
    const { ino, birthtimeMs } = fstatSync(fd);
    const template = { path, fd, size: 0, ino, birthtimeMs };
    this.#all.add(template);
    return template;
  }

  /** Removes the templates that processes gone since left beside the journals (one listing per store). */
  async #sweepLeftovers(): Promise<void> {
    const startedAt = processStartedAt();
    for (const name of await readdir(this.#dir)) {
      const match = NAME.exec(name);
      if (!match || name.startsWith(this.#prefix)) continue;
      const pid = Number(match[1]);
      const path = join(this.#dir, name);
      if (pid === process.pid ? !writtenBefore(path, startedAt) : isProcessAlive(pid)) continue;
      await unlink(path).catch(() => undefined); // removed by another store meanwhile
    }
  }

  #remove(template: LeaseTemplate): void {
    this.#all.delete(template);
    try {
      closeSync(template.fd);
    } catch {
      // closed already
    }
    try {
      unlinkSync(template.path);
    } catch {
      // removed already
    }
  }
}

/** True when the file at `path` was last written before `time` (another store of this process writes it now). */
function writtenBefore(path: string, time: number): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats !== undefined && stats.mtimeMs < time;
}
