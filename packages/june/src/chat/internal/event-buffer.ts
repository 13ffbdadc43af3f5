/**
 * An append-only buffer of events that any number of readers iterate from the start. Readers that catch
 * up wait for the next push; `close()` ends every iteration after the last event.
 */
export class EventBuffer<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #closed = false;
  #waiters: (() => void)[] = [];

  get closed(): boolean {
    return this.#closed;
  }

  get length(): number {
    return this.#items.length;
  }

  /** The events so far (read-only view, not a copy). */
  get items(): readonly T[] {
    return this.#items;
  }

  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#wake();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    let index = 0;
    for (;;) {
      if (index < this.#items.length) {
        yield this.#items[index++] as T;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
