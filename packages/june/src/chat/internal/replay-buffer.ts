/** What a `ReplayBuffer` keeps. */
export interface ReplayBufferOptions {
  /**
   * Let go of each item once its reader took it, so a long stream (a run's snapshots, a reply's deltas) is not
   * held twice. Such a buffer has one reader: `read()` may be called once, and `at()` sees only what it has
   * not taken yet.
   */
  discardRead?: boolean;
}

/** How the buffer stands: open for pushes, ended, or failed with an error its readers throw. */
type BufferState = { kind: "open" } | { kind: "ended" } | { kind: "failed"; error: unknown };

/** One open reader: where it is, and whether it holds an item it was handed and has not come back from. */
interface ReaderState {
  cursor: number;
  holding: boolean;
}

/** What `follow` hands the items to, in order, and how the buffer ended. */
export interface BufferSink<T> {
  item(value: T): void;
  end(): void;
  fail(error: unknown): void;
}

/** A `follow`er: a reader whose items are handed over in a microtask, several pushes sharing one. */
interface Follower<T> extends ReaderState {
  sink: BufferSink<T>;
  /** Items it may be handed inside `push` (see `FollowOptions.now`). */
  now: ((item: T) => boolean) | undefined;
  scheduled: boolean;
  stopped: boolean;
}

/** How `follow` hands items over. */
export interface FollowOptions<T> {
  /** The first item's index (default 0). */
  from?: number;
  /**
   * Items the sink takes inside `push` itself, when nothing is waiting for it ahead of them: no microtask of their
   * own. For items whose `sink.item` does not call back into the writer (a turn taking a reply's text).
   */
  now?: (item: T) => boolean;
}

/** A `read()` call's reader: its position, and the `next()` calls waiting for an item. */
interface IteratorReader<T> extends ReaderState {
  signal: AbortSignal | undefined;
  /** Counted from its first `next()` (as a generator's body starts there). */
  started: boolean;
  done: boolean;
  /** `next()` calls not answered yet, oldest first: answered as items come. */
  pending: { resolve(result: IteratorResult<T, void>): void; reject(error: unknown): void }[];
  onAbort: (() => void) | undefined;
}

const DONE: IteratorResult<never, void> = Object.freeze({ done: true, value: undefined });

/** No parked reader: shared, never pushed to (a reader that parks gets a list of its own). */
const EMPTY_PARKED: never[] = [];

const OPEN: BufferState = { kind: "open" };
const ENDED: BufferState = { kind: "ended" };

/**
 * An append-only sequence of items that any number of readers read from any index, each waiting for new
 * items until the buffer ends (or fails, which they throw) or their signal aborts. The one async buffer of
 * a turn's path: the turn's own events, an agent run's events and a model reply's deltas. The writer never
 * waits; `drained()` lets it wait until its readers took everything, and `dropUnread()` takes back what no
 * reader has been handed (a steer drops queued text).
 *
 * Indexes are absolute: with `discardRead` the items taken are gone, but the next one keeps its index.
 */
export class ReplayBuffer<T> implements AsyncIterable<T> {
  readonly #discardRead: boolean;
  #items: (T | undefined)[] = [];
  /** The absolute index of `#items[0]` (moves only when taken items are compacted away). */
  #offset = 0;
  /** How many items at the front of `#items` were taken and let go (`discardRead` only). */
  #released = 0;
  /** The highest index any reader has been handed, plus one. */
  #handedOut = 0;
  #state: BufferState = OPEN;
  #readCalled = false;
  readonly #readers = new Set<ReaderState>();
  #followers: Follower<T>[] | undefined;
  /** `read()` readers with a `next()` waiting for an item. */
  #parked: IteratorReader<T>[] = EMPTY_PARKED;
  #waiters: (() => void)[] = [];
  #drainWaiters: (() => void)[] = [];

  constructor(options: ReplayBufferOptions = {}) {
    this.#discardRead = options.discardRead === true;
  }

  /** How many items were pushed (the index the next one gets). */
  get length(): number {
    return this.#offset + this.#items.length;
  }

  /** True when every open reader has taken every item and come back for more (what `drained()` waits for). */
  get isDrained(): boolean {
    return this.#isDrained();
  }

  /** True once `end()` or `fail()` was called: no more items come. */
  get ended(): boolean {
    return this.#state.kind !== "open";
  }

  /** The item at `index`, or `undefined` when there is none (or, with `discardRead`, it was taken). */
  at(index: number): T | undefined {
    const i = index - this.#offset;
    if (i < this.#released || i >= this.#items.length) return undefined;
    return this.#items[i];
  }

  /** The last item pushed, unless it was taken (`discardRead`). */
  last(): T | undefined {
    return this.at(this.length - 1);
  }

  /** Appends an item and wakes the readers waiting for it; dropped once the buffer ended. */
  push(item: T): void {
    if (this.#state.kind !== "open") return;
    this.#items.push(item);
    this.#wake();
    if (this.#followers !== undefined) this.#pushToFollowers(item);
  }

  /** No more items: readers finish after the last one. */
  end(): void {
    this.#settle(ENDED);
  }

  /** No more items: readers throw `error` after the last one. */
  fail(error: unknown): void {
    this.#settle({ kind: "failed", error });
  }

  /**
   * The items from index `from` on, waiting for new ones until the buffer ends, or `signal` aborts (then the
   * iteration just stops). Throws the buffer's error after the last item if it failed. An async iterator
   * written out, not a generator: a `next()` waiting for an item is answered by the `push` that brings it, with
   * no promise of the buffer's own in between.
   */
  read(from = 0, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
    if (!Number.isInteger(from) || from < 0) throw new RangeError(`ReplayBuffer.read(from): from must be a non-negative integer, got ${String(from)}`);
    if (this.#discardRead) {
      if (this.#readCalled) throw new TypeError("These events can be read only once");
      if (from < this.#offset + this.#released) throw new RangeError(`ReplayBuffer.read(from): item ${from} was already taken`);
    }
    this.#readCalled = true;
    const reader: IteratorReader<T> = { cursor: from, holding: false, signal, started: false, done: false, pending: [], onAbort: undefined };
    const iterator: AsyncGenerator<T, void, undefined> = {
      next: () => this.#next(reader),
      return: () => {
        this.#closeReader(reader);
        return Promise.resolve(DONE);
      },
      throw: (error: unknown) => {
        this.#closeReader(reader);
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]: () => iterator,
    } as AsyncGenerator<T, void, undefined>;
    return iterator;
  }

  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return this.read();
  }

  /**
   * Hands the items from index `from` on to `sink`, in order, then tells it how the buffer ended: a reader
   * without the async iterator's promise per item. Each delivery runs in a microtask (the items pushed in one
   * go share it), never inside `push`, so the sink may call back into the writer. The follower counts as a
   * reader: it is drained once a delivery ran, and `dropUnread` takes what it was not handed yet. The returned
   * function stops it (no more calls to the sink). With `discardRead`, as for `read`, once only.
   */
  follow(sink: BufferSink<T>, options: FollowOptions<T> = {}): () => void {
    const from = options.from ?? 0;
    if (!Number.isInteger(from) || from < 0) throw new RangeError(`ReplayBuffer.follow(from): from must be a non-negative integer, got ${String(from)}`);
    if (this.#discardRead) {
      if (this.#readCalled) throw new TypeError("These events can be read only once");
      if (from < this.#offset + this.#released) throw new RangeError(`ReplayBuffer.follow(from): item ${from} was already taken`);
    }
    this.#readCalled = true;
    const follower: Follower<T> = { cursor: from, holding: false, sink, now: options.now, scheduled: false, stopped: false };
    this.#readers.add(follower);
    (this.#followers ??= []).push(follower);
    this.#schedule(follower);
    return () => this.#stopFollower(follower);
  }

  /** Resolves once there is an item at `index`, the buffer ended, or `signal` aborted (never rejects). */
  waitFor(index: number, signal?: AbortSignal): Promise<void> {
    if (index < this.length || this.#state.kind !== "open" || signal?.aborted) return Promise.resolve();
    return wakeable((wake) => this.#waiters.push(wake), signal);
  }

  /**
   * Resolves once every open reader has taken every item pushed so far and come back for more (so it acted
   * on the last one), at once when nobody is reading, and when a reader stops. A writer that must not end
   * before its reader saw everything (a failing run's last snapshot, a reply a steer may still extend)
   * waits here; `signal` ends the wait early (never rejects).
   */
  drained(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.#isDrained()) return Promise.resolve();
    return wakeable((wake) => this.#drainWaiters.push(wake), signal);
  }

  /**
   * Removes the items no reader has been handed yet and returns them (none once the buffer ended). Their
   * indexes go to the next items pushed: nobody saw them, so no reader's position moves.
   */
  dropUnread(): T[] {
    if (this.#state.kind !== "open") return [];
    const keep = Math.max(this.#handedOut - this.#offset, this.#released);
    if (keep >= this.#items.length) return [];
    const dropped = this.#items.splice(keep) as T[];
    this.#notifyDrained();
    return dropped;
  }

  /** A reader's `next()`: an item at once when there is one, else a promise the next push (or the end) answers. */
  #next(reader: IteratorReader<T>): Promise<IteratorResult<T, void>> {
    if (reader.done) return Promise.resolve(DONE);
    if (reader.pending.length > 0) return new Promise((resolve, reject) => reader.pending.push({ resolve, reject }));
    if (!reader.started) {
      reader.started = true;
      this.#readers.add(reader);
      const signal = reader.signal;
      if (signal !== undefined && !signal.aborted) {
        reader.onAbort = () => this.#closeReader(reader);
        signal.addEventListener("abort", reader.onAbort, { once: true });
      }
    }
    // Back for more: it acted on the item it was handed.
    reader.holding = false;
    try {
      const result = this.#answer(reader);
      if (result !== undefined) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#parked === EMPTY_PARKED) this.#parked = [];
    this.#parked.push(reader);
    return new Promise((resolve, reject) => reader.pending.push({ resolve, reject }));
  }

  /**
   * What a reader's `next()` gets now: the next item, the end (the buffer ended, or its signal aborted), or the
   * buffer's error (thrown); undefined when it must wait.
   */
  #answer(reader: IteratorReader<T>): IteratorResult<T, void> | undefined {
    if (reader.signal?.aborted) {
      this.#finishReader(reader);
      return DONE;
    }
    const i = reader.cursor - this.#offset;
    if (i < this.#items.length) {
      const value = this.#handOut(reader, i);
      reader.holding = true;
      return { done: false, value };
    }
    // Back for more after the last item: this reader has acted on everything pushed so far.
    if (this.#drainWaiters.length > 0) this.#notifyDrained();
    const state = this.#state;
    if (state.kind === "open") return undefined;
    this.#finishReader(reader);
    if (state.kind === "ended") return DONE;
    throw state.error;
  }

  /** Answers the parked readers' waiting `next()` calls, oldest first, as far as the buffer now can. */
  #serveParked(): void {
    const parked = this.#parked;
    // Filled again below with the readers still waiting (swapped, so `#finishReader` sees the live list).
    this.#parked = EMPTY_PARKED;
    for (const reader of parked) {
      while (reader.pending.length > 0) {
        const waiting = reader.pending[0]!;
        // A `next()` waiting is a reader back for more (`#answer` marks it holding what it hands over).
        reader.holding = false;
        let result: IteratorResult<T, void> | undefined;
        try {
          result = reader.done ? DONE : this.#answer(reader);
        } catch (error) {
          reader.pending.shift();
          waiting.reject(error);
          continue;
        }
        if (result === undefined) break;
        reader.pending.shift();
        waiting.resolve(result);
      }
      if (reader.pending.length > 0) {
        if (this.#parked === EMPTY_PARKED) this.#parked = [];
        this.#parked.push(reader);
      }
    }
  }

  /** The reader stops: `return()`, its signal, or its last answer. Its waiting `next()` calls end. */
  #closeReader(reader: IteratorReader<T>): void {
    if (reader.done) return;
    this.#finishReader(reader);
    const pending = reader.pending;
    reader.pending = [];
    for (const waiting of pending) waiting.resolve(DONE);
  }

  #finishReader(reader: IteratorReader<T>): void {
    if (reader.done) return;
    reader.done = true;
    reader.holding = false;
    if (reader.onAbort !== undefined) reader.signal!.removeEventListener("abort", reader.onAbort);
    reader.onAbort = undefined;
    const at = this.#parked.indexOf(reader);
    if (at !== -1) this.#parked.splice(at, 1);
    if (reader.started) {
      this.#readers.delete(reader);
      if (this.#drainWaiters.length > 0) this.#notifyDrained();
    }
  }

  /** The item at array index `i`, handed to `reader`: its cursor moves past it, and it is let go if read once. */
  #handOut(reader: ReaderState, i: number): T {
    const item = this.#items[i] as T;
    reader.cursor += 1;
    if (reader.cursor > this.#handedOut) this.#handedOut = reader.cursor;
    if (this.#discardRead) this.#release(i);
    return item;
  }

  #scheduleFollowers(): void {
    for (const follower of this.#followers!) this.#schedule(follower);
  }

  /** A pushed item to each follower: at once to one that takes it now with nothing ahead of it, else in a microtask. */
  #pushToFollowers(item: T): void {
    const followers = this.#followers!;
    for (const follower of followers.length === 1 ? followers : followers.slice()) {
      if (follower.now !== undefined && !follower.scheduled && !follower.stopped && follower.now(item)) {
        const i = follower.cursor - this.#offset;
        // Only the item just pushed is ahead of it: hand it over here.
        if (i === this.#items.length - 1) {
          follower.sink.item(this.#handOut(follower, i));
          if (this.#drainWaiters.length > 0) this.#notifyDrained();
          continue;
        }
      }
      this.#schedule(follower);
    }
  }

  #schedule(follower: Follower<T>): void {
    if (follower.scheduled || follower.stopped) return;
    follower.scheduled = true;
    queueMicrotask(() => this.#deliver(follower));
  }

  /** Hands a follower what was pushed since its last delivery, and the end once the buffer settled. */
  #deliver(follower: Follower<T>): void {
    follower.scheduled = false;
    while (!follower.stopped) {
      const i = follower.cursor - this.#offset;
      if (i >= this.#items.length) break;
      follower.sink.item(this.#handOut(follower, i));
    }
    if (follower.stopped) return;
    const state = this.#state;
    if (state.kind === "open") {
      if (this.#drainWaiters.length > 0) this.#notifyDrained();
      return;
    }
    this.#stopFollower(follower);
    if (state.kind === "ended") follower.sink.end();
    else follower.sink.fail(state.error);
  }

  #stopFollower(follower: Follower<T>): void {
    if (follower.stopped) return;
    follower.stopped = true;
    this.#readers.delete(follower);
    const followers = this.#followers!;
    followers.splice(followers.indexOf(follower), 1);
    if (followers.length === 0) this.#followers = undefined;
    if (this.#drainWaiters.length > 0) this.#notifyDrained();
  }

  /** Lets go of the item at array index `i`; compacts once most of the array is taken. */
  #release(i: number): void {
    this.#items[i] = undefined;
    this.#released = i + 1;
    if (this.#released > 1024 && this.#released * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#released);
      this.#offset += this.#released;
      this.#released = 0;
    }
  }

  #settle(state: BufferState): void {
    if (this.#state.kind !== "open") return;
    this.#state = state;
    this.#wake();
    if (this.#followers !== undefined) this.#scheduleFollowers();
  }

  #isDrained(): boolean {
    const length = this.length;
    for (const reader of this.#readers) if (reader.holding || reader.cursor < length) return false;
    return true;
  }

  #notifyDrained(): void {
    if (!this.#isDrained()) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #wake(): void {
    if (this.#parked.length > 0) this.#serveParked();
    if (this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/** A promise that `enlist`'s wake-up resolves, or `signal` aborting (its listener removed either way). */
function wakeable(enlist: (wake: () => void) => void, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!signal) return enlist(resolve);
    const wake = () => {
      signal.removeEventListener("abort", wake);
      resolve();
    };
    enlist(wake);
    signal.addEventListener("abort", wake, { once: true });
  });
}
