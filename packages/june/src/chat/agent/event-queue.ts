/**
 * A single-reader async queue: `push` never blocks, the reader takes items in order and waits when it has
 * caught up, `end()` finishes the iteration after the last item. Items are dropped once read, so a long
 * run's snapshots are not kept here (the turn keeps its own buffer).
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #iterated = false;
  #wake: (() => void) | undefined;

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#notify();
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
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
