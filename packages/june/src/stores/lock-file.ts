import { randomUUID } from "node:crypto";
import { link, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";

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

export type LockAttempt = { acquired: true; token: string } | { acquired: false; owner?: LockOwner };

/** A lock file that cannot be read is being written, unless it is older than this (its writer died). */
const UNREADABLE_GRACE_MS = 5_000;

const INSTANCE_KEY = Symbol.for("june.lockFile.instance");

/** This thread's lock-owner id, shared by every copy of this module loaded in it. */
function instanceId(): string {
  const scope = globalThis as unknown as Record<symbol, string | undefined>;
  return (scope[INSTANCE_KEY] ??= randomUUID());
}

/**
 * Tries once to take the lock at `path`: the file is created exclusively (`wx`) holding our pid and a
 * fresh token. A lock whose owner is dead (same host, `kill(pid, 0)` says ESRCH, or our own pid in a lock taken
 * before this process started) or expired is taken over.
 */
export async function tryLock(path: string, options: { ttlMs?: number } = {}): Promise<LockAttempt> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = Date.now();
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      token: randomUUID(),
      acquiredAt: new Date(now).toISOString(),
      instance: instanceId(),
    };
    if (options.ttlMs !== undefined && Number.isFinite(options.ttlMs)) {
      owner.expiresAt = new Date(now + options.ttlMs).toISOString();
    }
    try {
      await writeFile(path, JSON.stringify(owner), { flag: "wx" });
      return { acquired: true, token: owner.token };
    } catch (error) {
      if (!hasCode(error, "EEXIST")) throw error;
    }
    const raw = await readOrUndefined(path);
    if (raw === undefined) continue; // released meanwhile: try again
    const current = parseOwner(raw);
    if (!(await isStale(path, current, now))) return { acquired: false, owner: current };
    // Take over only the very lock we judged stale, never one that replaced it meanwhile.
    if (!(await removeIf(path, (text) => text === raw))) return { acquired: false, owner: current };
  }
  return { acquired: false, owner: parseOwner((await readOrUndefined(path)) ?? "") };
}

/** Removes the lock at `path` if it still holds `token`. */
export async function unlock(path: string, token: string): Promise<boolean> {
  return removeIf(path, (text) => parseOwner(text)?.token === token);
}

/** Reads the owner of the lock at `path`, if any. */
export async function readLockOwner(path: string): Promise<LockOwner | undefined> {
  const raw = await readOrUndefined(path);
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

async function isStale(path: string, owner: LockOwner | undefined, now: number): Promise<boolean> {
  if (owner === undefined) {
    const info = await stat(path).catch(() => undefined);
    return info !== undefined && now - info.mtimeMs > UNREADABLE_GRACE_MS;
  }
  if (owner.expiresAt !== undefined && Date.parse(owner.expiresAt) <= now) return true;
  if (owner.host !== hostname()) return false;
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
  const processStartedAt = Date.now() - process.uptime() * 1000;
  return Number.isFinite(acquiredAt) && acquiredAt < processStartedAt;
}

/**
 * Removes `path` when `check(content)` holds. The file is first renamed away (atomic: of several
 * contenders only one gets it), then checked; a lock taken by mistake is linked back in place.
 */
async function removeIf(path: string, check: (content: string) => boolean): Promise<boolean> {
  const aside = `${path}.${randomUUID()}.gone`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (hasCode(error, "ENOENT")) return false;
    throw error;
  }
  const content = (await readOrUndefined(aside)) ?? "";
  if (check(content)) {
    await unlink(aside).catch(() => undefined);
    return true;
  }
  await link(aside, path).catch(() => undefined); // EEXIST: a new lock exists already; keep it
  await unlink(aside).catch(() => undefined);
  return false;
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

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (hasCode(error, "ENOENT")) return undefined;
    throw error;
  }
}

/** True when `error` is a Node system error with this `code`. */
export function hasCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
