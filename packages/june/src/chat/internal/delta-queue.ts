/**
 * A single-reader queue of text pieces (and the trace snapshots between them): the model responder pushes
 * as the model writes, the turn reads. It knows what was handed out, so a steer can drop the text the
 * reader has not seen yet, and the responder can wait until its reader has taken everything before it ends
 * the reply.
 */
export class DeltaQueue<T extends { type: string; text?: string }> implements AsyncIterable<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  #closed = false;
  #reading = false;
  /** The reader asked for an item past the last one pushed: it has handled everything before. */
  #caughtUp = false;
  #wakeReader: (() => void) | undefined;
  #wakeWriter: (() => void) | undefined;

  /** Items pushed and not handed out yet. */
  get pending(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#notifyReader();
  }

  close(): void {
    this.#closed = true;
    this.#notifyReader();
    this.#notifyWriter();
  }

  /** Drops the text items not handed out yet (snapshots stay); returns how many characters they held. */
  dropPending(): number {
    let dropped = 0;
    const kept: T[] = [];
    for (let i = this.#head; i < this.#items.length; i++) {
      const item = this.#items[i]!;
      if (typeof item.text === "string") dropped += item.text.length;
      else kept.push(item);
    }
    this.#items = kept;
    this.#head = 0;
    return dropped;
  }

  /**
   * Resolves once a reader has taken everything pushed and come back for more (so it has handled the last
   * item, not only received it), or at once when nobody is reading (a caller that only awaits the result
   * must not wait forever). `interrupt()` resolves it early.
   */
  drained(): Promise<void> {
    if (!this.#reading || (this.#caughtUp && this.pending === 0) || this.#closed) return Promise.resolve();
    return new Promise<void>((resolve) => (this.#wakeWriter = resolve));
  }

  /** Wakes a writer waiting in `drained()`. */
  interrupt(): void {
    this.#notifyWriter();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    this.#reading = true;
    try {
      for (;;) {
        if (this.#head < this.#items.length) {
          const item = this.#items[this.#head]!;
          this.#items[this.#head++] = undefined;
          if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
            this.#items = this.#items.slice(this.#head);
            this.#head = 0;
          }
          yield item;
          continue;
        }
        this.#caughtUp = true;
        this.#notifyWriter();
        if (this.#closed) return;
        await new Promise<void>((resolve) => (this.#wakeReader = resolve));
        this.#caughtUp = false;
      }
    } finally {
      this.#reading = false;
      this.#notifyWriter();
    }
  }

  #notifyReader(): void {
    const wake = this.#wakeReader;
    this.#wakeReader = undefined;
    wake?.();
  }

  #notifyWriter(): void {
    const wake = this.#wakeWriter;
    this.#wakeWriter = undefined;
    wake?.();
  }
}
