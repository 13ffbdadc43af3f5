/**
 * A single-reader async queue: `push` never blocks, the reader takes items in order and waits when it has
 * caught up, `end()` finishes the iteration after the last item. Items are dropped once read, so a long
 * run's snapshots are not kept here (the turn keeps its own buffer). `drained()` lets the writer wait until
 * its reader has taken everything, so a failing turn still delivers its last events (the snapshot that
 * shows the failure) before its result rejects.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #iterated = false;
  /** The reader has asked for an item past the last one pushed (or stopped reading). */
  #caughtUp = true;
  #readerGone = false;
  #wake: (() => void) | undefined;
  #drainedWaiters: (() => void)[] = [];

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#caughtUp = false;
    this.#notify();
  }

  /**
   * Resolves once the reader has taken every item pushed so far and come back for more, at once when
   * nobody reads these events, and when the reader stops.
   */
  drained(): Promise<void> {
    if (!this.#iterated || this.#readerGone || this.#caughtUp) return Promise.resolve();
    return new Promise<void>((resolve) => this.#drainedWaiters.push(resolve));
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#notify();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterated) throw new TypeError("These events can be read only once");
    this.#iterated = true;
    return this.#read();
  }

  async *#read(): AsyncGenerator<T, void, undefined> {
    try {
      for (;;) {
        if (this.#head < this.#items.length) {
          const item = this.#items[this.#head] as T;
          this.#items[this.#head] = undefined as T;
          this.#head += 1;
          if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
            this.#items = this.#items.slice(this.#head);
            this.#head = 0;
          }
          yield item;
          continue;
        }
        // The reader came back after the last item: it has taken everything pushed so far.
        this.#caughtUp = true;
        this.#notifyDrained();
        if (this.#ended) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      this.#readerGone = true;
      this.#notifyDrained();
    }
  }

  #notifyDrained(): void {
    const waiters = this.#drainedWaiters;
    this.#drainedWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
