/** How often a lease taken with the store's default expiry is renewed: three times per expiry. */
const RENEWALS_PER_TTL = 3;

/**
 * Keeps the leases a database store holds without an explicit `ttlMs` alive: each gets a short expiry
 * (so a crashed process's lease frees soon) that a timer renews while this process holds it. The timers are
 * unref'd (they never keep a process alive) and stop on release, on `close()`, or when a renewal finds the
 * lease gone (released elsewhere, taken over after expiry, or its session deleted).
 */
export class LeaseKeeper {
  readonly #timers = new Map<string, NodeJS.Timeout>();

  /**
   * Starts renewing a lease.
   * @param token The lease's token.
   * @param ttlMs The lease's expiry, renewed every third of it.
   * @param renew Extends the lease; resolves false when the lease is no longer this holder's.
   */
  keep(token: string, ttlMs: number, renew: () => Promise<boolean> | boolean): void {
    this.stop(token);
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        if (!(await renew())) this.stop(token);
      } catch {
        // The database is unreachable for now: try again at the next tick; the lease expires if it stays so.
      } finally {
        running = false;
      }
    }, Math.max(1, Math.floor(ttlMs / RENEWALS_PER_TTL)));
    timer.unref();
    this.#timers.set(token, timer);
  }

  /** Stops renewing the lease with this token (it is being released). */
  stop(token: string): void {
    const timer = this.#timers.get(token);
    if (timer !== undefined) {
      clearInterval(timer);
      this.#timers.delete(token);
    }
  }

  /** Stops every renewal: the store closes, its leases expire on their own. */
  stopAll(): void {
    for (const token of [...this.#timers.keys()]) this.stop(token);
  }

  /** How many leases are being renewed. */
  get size(): number {
    return this.#timers.size;
  }
}

/** Checks a store's `leaseTtlMs` option. */
export function checkLeaseTtl(store: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 30) {
    throw new TypeError(`${store}: \`leaseTtlMs\` must be a finite number of milliseconds >= 30`);
  }
  return value;
}
