/**
 * The turn leases this process keeps between turns (see `fileStore`'s `keepLeaseMs`), by lock file, each with
 * a synchronous release: another store of this process that wants one of those sessions releases it at once
 * (`releaseKept`), as a store's own timer, `close()` and `deleteSession` do, and whatever is kept when the
 * process exits is released then (an `exit` listener). A process killed outright (SIGKILL, or a signal Node
 * does not turn into an exit) leaves the lock file with its dead pid, which the next taker takes over, as it
 * does a lease of a turn killed mid-way. Shared by every copy of this module loaded in the thread.
 */
interface KeptRegistry {
  leases: Map<string, () => void>;
  hooked: boolean;
}

const REGISTRY_KEY = Symbol.for("june.fileStore.keptLeases");

function registry(): KeptRegistry {
  const scope = globalThis as unknown as Record<symbol, KeptRegistry | undefined>;
  return (scope[REGISTRY_KEY] ??= { leases: new Map(), hooked: false });
}

/** Notes a lease kept at lock file `path`; `release` lets it go now (synchronously, never throwing). */
export function keepLease(path: string, release: () => void): void {
  const kept = registry();
  kept.leases.set(path, release);
  if (!kept.hooked) {
    kept.hooked = true;
    process.on("exit", releaseAllKept);
  }
}

/** Forgets the lease kept at `path` (taken again by its store, or released). */
export function forgetKept(path: string, release: () => void): void {
  const kept = registry();
  if (kept.leases.get(path) === release) kept.leases.delete(path);
}

/** Releases the lease this process keeps at `path`, if any: true when there was one. */
export function releaseKept(path: string): boolean {
  const release = registry().leases.get(path);
  if (release === undefined) return false;
  release();
  return true;
}

function releaseAllKept(): void {
  for (const release of [...registry().leases.values()]) release();
}
