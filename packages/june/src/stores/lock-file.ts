import { randomUUID } from "node:crypto";
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { hasCode } from "./error-code.js";
import type { LeaseTemplate, LeaseTemplates } from "./lease-templates.js";

// Lock files are a few hundred bytes in the store's own directory, and taking or dropping one is one to four
// small metadata calls: they are made synchronously, which costs a few microseconds each where a call through
// the thread pool costs tens (a turn takes and drops three locks). Nothing here waits on a flush.

/** What a lock file holds. */
export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  acquiredAt: string;
  /** Past this time the lock may be taken over even if its owner lives. */
  expiresAt?: string;
  /** The owning thread's id: tells this process's locks from those an earlier process with the same pid left. */
  instance?: string;
}

/** Which file a lock is: a lock file removed and taken again by someone else is another file. */
export interface LockFileId {
  ino: number;
  size: number;
  birthtimeMs: number;
  /**
   * Left out for a template's lock (see `LeaseTemplates`): only this process writes a template, never while it
   * is linked as a lock, so its inode, birth time and size tell it.
   */
  mtimeMs?: number;
}

export type LockAttempt =
  | { acquired: true; token: string; file: LockFileId; /** The template linked as the lock (see `LeaseTemplates`). */ template?: LeaseTemplate }
  | { acquired: false; owner?: LockOwner };

/** A lock file that cannot be read is being written, unless it is older than this (its writer died). */
const UNREADABLE_GRACE_MS = 5_000;

const INSTANCE_KEY = Symbol.for("june.lockFile.instance");

/** This thread's lock-owner id, shared by every copy of this module loaded in it. */
function instanceId(): string {
  const scope = globalThis as unknown as Record<symbol, string | undefined>;
  return (scope[INSTANCE_KEY] ??= randomUUID());
}

let tokens = 0;
/** A lock's token: unique across processes and threads (this thread's id) and within one (a counter). */
function newToken(): string {
  return `${instanceId()}.${(++tokens).toString(36)}`;
}

let host: string | undefined;
/** This machine's name, looked up once (a system call each time otherwise). */
export function hostName(): string {
  return (host ??= hostname());
}

/**
 * Tries once to take the lock at `path`: the file is created exclusively (`wx`) holding our pid and a
 * fresh token, or, given `templates`, one of them is rewritten with that and hard-linked there (as atomic). A lock whose owner is dead (same host, `kill(pid, 0)` says ESRCH, or our own pid in a lock taken
 * before this process started) or expired is taken over.
 */
export async function tryLock(path: string, options: { ttlMs?: number; templates?: LeaseTemplates } = {}): Promise<LockAttempt> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = Date.now();
    const owner = newOwner(now, options.ttlMs);
    if (options.templates) {
      const template = options.templates.link(path, JSON.stringify(owner));
      if (template) {
        const file = { ino: template.ino, size: template.size, birthtimeMs: template.birthtimeMs };
        return { acquired: true, token: owner.token, file, template };
      }
    } else {
      const created = createLock(path, owner);
      if (created) return created;
    }
    const raw = readOrUndefined(path);
    if (raw === undefined) continue; // released meanwhile: try again
    const current = parseOwner(raw);
    if (!isStale(path, current, now)) return { acquired: false, owner: current };
    // Take over only the very lock we judged stale, never one that replaced it meanwhile.
    if (!removeIf(path, (text) => text === raw)) return { acquired: false, owner: current };
  }
  return { acquired: false, owner: parseOwner(readOrUndefined(path) ?? "") };
}

/** What a lock taken now by this process holds: a fresh token, and an expiry when `ttlMs` is finite. */
function newOwner(now: number, ttlMs?: number): LockOwner {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostName(),
    token: newToken(),
    acquiredAt: new Date(now).toISOString(),
    instance: instanceId(),
  };
  if (ttlMs !== undefined && Number.isFinite(ttlMs)) owner.expiresAt = new Date(now + ttlMs).toISOString();
  return owner;
}

function lockFileId(stats: { ino: number; size: number; birthtimeMs: number; mtimeMs: number }): LockFileId {
  return { ino: stats.ino, size: stats.size, birthtimeMs: stats.birthtimeMs, mtimeMs: stats.mtimeMs };
}

/** Creates the lock file exclusively with `owner` in it; undefined when it exists. */
function createLock(path: string, owner: LockOwner): LockAttempt | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    if (!hasCode(error, "EEXIST")) throw error;
  }
  if (fd === undefined) return undefined;
  try {
    writeSync(fd, JSON.stringify(owner));
    return { acquired: true, token: owner.token, file: lockFileId(fstatSync(fd)) };
  } catch (error) {
    ignoreErrors(() => unlinkSync(path));
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** Removes the lock at `path` if it still holds `token`. */
export async function unlock(path: string, token: string): Promise<boolean> {
  return removeIf(path, (text) => parseOwner(text)?.token === token);
}

/**
 * Removes a lock this process took, while nobody may take it over: before its expiry's first half is over
 * (`takenAt + ttlMs / 2`, any time without an expiry), with the owner alive (this process) no other process
 * judges it stale. So it is not read back: one stat tells it is still the very file `tryLock` created (inode,
 * size, birth and modification time; a template's lock by its inode, size and birth time), then it is unlinked, without `unlock`'s rename aside. What remains is a lock
 * file removed by hand (or by `deleteSession`) and a new one taken in the microseconds between the stat and
 * the unlink. Past that half, `unlock`'s atomic rename is used.
 *
 * @param path the lock file
 * @param token the token `tryLock` returned
 * @param file the file `tryLock` returned
 * @param takenAt `Date.now()` right before the `tryLock` that took it
 * @param ttlMs the `ttlMs` given to that `tryLock` (Infinity or undefined for none)
 */
export async function unlockOwn(path: string, token: string, file: LockFileId, takenAt: number, ttlMs: number | undefined): Promise<boolean> {
  if (!withinHalfTtl(takenAt, ttlMs)) return unlock(path, token);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats || stats.ino !== file.ino || stats.size !== file.size || stats.birthtimeMs !== file.birthtimeMs) return false;
  if (file.mtimeMs !== undefined && stats.mtimeMs !== file.mtimeMs) return false;
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if (hasCode(error, "ENOENT")) return false;
    throw error;
  }
}

/** True while a lock taken at `takenAt` with this `ttlMs` cannot be taken over by anyone (its owner alive). */
export function withinHalfTtl(takenAt: number, ttlMs: number | undefined): boolean {
  return ttlMs === undefined || !Number.isFinite(ttlMs) || Date.now() - takenAt < ttlMs / 2;
}

/**
 * The owner of the lock at `path` when it holds it now (alive, not expired); undefined when there is no lock
 * or it is stale (it would be taken over).
 */
export function liveOwner(path: string): LockOwner | undefined {
  const raw = readOrUndefined(path);
  if (raw === undefined) return undefined;
  const owner = parseOwner(raw);
  if (owner === undefined) {
    // Being written (or its writer died): live within the grace period.
    return isStale(path, owner, Date.now()) ? undefined : { pid: 0, host: "", token: "", acquiredAt: "" };
  }
  return isStale(path, owner, Date.now()) ? undefined : owner;
}

/** Reads the owner of the lock at `path`, if any. */
export async function readLockOwner(path: string): Promise<LockOwner | undefined> {
  const raw = readOrUndefined(path);
  return raw === undefined ? undefined : parseOwner(raw);
}

/** True when the process `pid` exists (on this host). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return !hasCode(error, "ESRCH");
  }
}

function isStale(path: string, owner: LockOwner | undefined, now: number): boolean {
  if (owner === undefined) {
    const info = statSync(path, { throwIfNoEntry: false });
    return info !== undefined && now - info.mtimeMs > UNREADABLE_GRACE_MS;
  }
  if (owner.expiresAt !== undefined && Date.parse(owner.expiresAt) <= now) return true;
  if (owner.host !== hostName()) return false;
  if (owner.pid === process.pid) return leftByEarlierProcess(owner);
  return !isProcessAlive(owner.pid);
}

/**
 * A lock holding our own pid is ours (any thread's) unless no thread of ours wrote it and it was taken
 * before this process started: then a dead process with the same pid left it (a restarted container's pid 1).
 */
function leftByEarlierProcess(owner: LockOwner): boolean {
  if (owner.instance === instanceId()) return false;
  const acquiredAt = Date.parse(owner.acquiredAt);
  return Number.isFinite(acquiredAt) && acquiredAt < processStartedAt();
}

/** When this process started (epoch ms). */
export function processStartedAt(): number {
  return Date.now() - process.uptime() * 1000;
}

/**
 * Removes `path` when `check(content)` holds. The file is first renamed away (atomic: of several
 * contenders only one gets it), then checked; a lock taken by mistake is linked back in place.
 */
function removeIf(path: string, check: (content: string) => boolean): boolean {
  const aside = `${path}.${randomUUID()}.gone`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (hasCode(error, "ENOENT")) return false;
    throw error;
  }
  const content = readOrUndefined(aside) ?? "";
  if (check(content)) {
    ignoreErrors(() => unlinkSync(aside));
    return true;
  }
  ignoreErrors(() => linkSync(aside, path)); // EEXIST: a new lock exists already; keep it
  ignoreErrors(() => unlinkSync(aside));
  return false;
}

function ignoreErrors(task: () => void): void {
  try {
    task();
  } catch {
    // best effort
  }
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner> | null;
    if (value && typeof value.pid === "number" && typeof value.token === "string" && typeof value.host === "string") {
      return value as LockOwner;
    }
  } catch {
    // unreadable: treated by age
  }
  return undefined;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (hasCode(error, "ENOENT")) return undefined;
    throw error;
  }
}

