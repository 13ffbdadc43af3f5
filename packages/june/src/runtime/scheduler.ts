/** Releases a slot taken from a `Semaphore`; calling it twice is harmless. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

/**
 * A counting semaphore: at most `limit` holders at once (no limit when `limit` is undefined). Waiters are
 * served in order; a waiter whose signal aborts leaves the queue and rejects with the signal's reason.
 */
export class Semaphore {
  private active = 0;
  private readonly queue: Waiter[] = [];
  /** Highest number of holders seen at once. */
  maxActive = 0;

  constructor(private readonly limit: number | undefined) {
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new RangeError(`concurrency must be a positive integer, got ${String(limit)}`);
    }
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.limit === undefined || this.active < this.limit) return Promise.resolve(this.take());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private take(): Release {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const next = this.queue.shift();
      if (next) next.grant(this.take());
    };
  }
}

/** An `AbortController` that also aborts (with the same reason) when `parent` does. `dispose` unlinks it. */
export function linkedController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener("abort", onAbort) };
}

/**
 * Settles with `promise`, or rejects with `signal.reason` as soon as the signal aborts, whichever is first.
 * The losing promise's rejection is handled, so nothing is left unhandled.
 */
export function raceAbort<T>(promise: PromiseLike<T> | T, signal: AbortSignal): Promise<T> {
  const settled = Promise.resolve(promise);
  if (signal.aborted) {
    settled.then(undefined, () => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      settled.then(undefined, () => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    settled.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
