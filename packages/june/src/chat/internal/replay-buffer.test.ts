import { describe, expect, test } from "vitest";
import { ReplayBuffer } from "./replay-buffer.js";

async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Lets every pending promise callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe("ReplayBuffer", () => {
  test("every reader starts from the first item, early or late", async () => {
    const buffer = new ReplayBuffer<number>();
    const early = drain(buffer);
    buffer.push(1);
    buffer.push(2);
    const middle = drain(buffer);
    await settle();
    buffer.push(3);
    buffer.end();
    const late = drain(buffer);
    expect(await early).toEqual([1, 2, 3]);
    expect(await middle).toEqual([1, 2, 3]);
    expect(await late).toEqual([1, 2, 3]);
  });

  test("replays from an index, before and after the items arrive", async () => {
    const buffer = new ReplayBuffer<string>();
    buffer.push("a");
    buffer.push("b");
    const fromOne = drain(buffer.read(1));
    const ahead = drain(buffer.read(3));
    buffer.push("c");
    buffer.push("d");
    buffer.push("e");
    buffer.end();
    expect(await fromOne).toEqual(["b", "c", "d", "e"]);
    expect(await ahead).toEqual(["d", "e"]);
    expect(await drain(buffer.read(5))).toEqual([]);
    expect(await drain(buffer.read(9))).toEqual([]);
    expect(buffer.length).toBe(5);
    expect(buffer.at(2)).toBe("c");
    expect(buffer.at(5)).toBeUndefined();
    expect(buffer.last()).toBe("e");
  });

  test("pushes after the end are dropped and a reader may stop early", async () => {
    const buffer = new ReplayBuffer<string>();
    buffer.push("a");
    buffer.push("b");
    buffer.end();
    buffer.push("c");
    expect(buffer.length).toBe(2);
    expect(buffer.ended).toBe(true);
    for await (const item of buffer) {
      expect(item).toBe("a");
      break;
    }
    expect(await drain(buffer)).toEqual(["a", "b"]);
  });

  test("a failed buffer's readers throw its error after the last item", async () => {
    const buffer = new ReplayBuffer<number>();
    const boom = new Error("boom");
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of buffer) seen.push(item);
    })();
    buffer.push(1);
    buffer.fail(boom);
    buffer.end();
    await expect(reading).rejects.toBe(boom);
    expect(seen).toEqual([1]);
    await expect(drain(buffer.read(1))).rejects.toBe(boom);
  });

  test("an aborted signal stops a waiting reader without an error; the others read on", async () => {
    const buffer = new ReplayBuffer<number>();
    const stop = new AbortController();
    const stopped = drain(buffer.read(0, stop.signal));
    const other = drain(buffer);
    buffer.push(1);
    await settle();
    stop.abort();
    expect(await stopped).toEqual([1]);
    buffer.push(2);
    buffer.end();
    expect(await other).toEqual([1, 2]);
    expect(await drain(buffer.read(0, stop.signal))).toEqual([]);
  });

  test("waitFor resolves on the item, the end or the signal", async () => {
    const buffer = new ReplayBuffer<number>();
    let arrived = false;
    void buffer.waitFor(0).then(() => (arrived = true));
    await settle();
    expect(arrived).toBe(false);
    buffer.push(1);
    await settle();
    expect(arrived).toBe(true);

    const stop = new AbortController();
    const aborted = buffer.waitFor(5, stop.signal);
    stop.abort();
    await aborted;

    const ended = buffer.waitFor(5);
    buffer.end();
    await ended;
    await buffer.waitFor(100);
  });

  test("rejects a bad starting index", () => {
    const buffer = new ReplayBuffer<number>();
    expect(() => buffer.read(-1)).toThrow(RangeError);
    expect(() => buffer.read(1.5)).toThrow(/non-negative integer/);
  });

  test("drained waits until every reader took everything and came back", async () => {
    const buffer = new ReplayBuffer<number>();
    await buffer.drained(); // nobody reads
    buffer.push(1);
    await buffer.drained(); // still nobody
    const iterator = buffer.read()[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: 1, done: false });
    let drained = false;
    void buffer.drained().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false); // handed out, but the reader has not acted on it
    const next = iterator.next(); // back for more
    await settle();
    expect(drained).toBe(true);

    buffer.push(2);
    drained = false;
    void buffer.drained().then(() => (drained = true));
    await settle();
    expect(drained).toBe(false);
    expect(await next).toEqual({ value: 2, done: false });
    await iterator.return!(); // a reader that stops releases the writer
    await settle();
    expect(drained).toBe(true);

    buffer.push(3);
    const stop = new AbortController();
    const reader = buffer.read()[Symbol.asyncIterator]();
    await reader.next();
    const waiting = buffer.drained(stop.signal);
    stop.abort();
    await waiting; // the signal ends the wait
  });

  test("dropUnread takes back what no reader was handed", async () => {
    const buffer = new ReplayBuffer<string>();
    buffer.push("a");
    buffer.push("b");
    const iterator = buffer.read()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe("a");
    buffer.push("c");
    expect(buffer.dropUnread()).toEqual(["b", "c"]);
    expect(buffer.length).toBe(1);
    expect(buffer.dropUnread()).toEqual([]);
    buffer.push("d");
    buffer.end();
    expect(buffer.dropUnread()).toEqual([]);
    expect((await iterator.next()).value).toBe("d");
    expect((await iterator.next()).done).toBe(true);
  });

  describe("discardRead", () => {
    test("lets go of what its one reader took, keeping indexes", async () => {
      const buffer = new ReplayBuffer<number>({ discardRead: true });
      const count = 5_000;
      for (let i = 0; i < 10; i++) buffer.push(i);
      expect(buffer.at(3)).toBe(3); // not taken yet
      const seen: number[] = [];
      const reading = (async () => {
        for await (const item of buffer) {
          seen.push(item);
          if (item === 4) expect(buffer.at(4)).toBeUndefined();
          if (item === 4) expect(buffer.at(5)).toBe(5);
        }
      })();
      for (let i = 10; i < count; i++) {
        buffer.push(i);
        if (i % 100 === 0) await settle();
      }
      buffer.end();
      await reading;
      expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(buffer.length).toBe(count);
      expect(buffer.at(count - 1)).toBeUndefined();
      expect(() => buffer.read()).toThrow(/read only once/);
    });

    test("dropUnread keeps what was taken and drops what was not", async () => {
      const buffer = new ReplayBuffer<string>({ discardRead: true });
      buffer.push("a");
      buffer.push("b");
      expect(buffer.dropUnread()).toEqual(["a", "b"]); // nobody reads yet: all of it
      buffer.push("c");
      buffer.push("d");
      const iterator = buffer.read()[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toBe("c");
      expect(buffer.dropUnread()).toEqual(["d"]);
      buffer.push("e");
      buffer.end();
      expect((await iterator.next()).value).toBe("e");
      expect((await iterator.next()).done).toBe(true);
    });
  });

  test("random pushes, reads and aborts: each reader sees the items from its index in order (seeded)", async () => {
    let seed = 17;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 20; round++) {
      const buffer = new ReplayBuffer<number>();
      const readers: { from: number; stop?: AbortController; seen: number[]; done: Promise<void> }[] = [];
      const total = 50 + Math.floor(random() * 100);
      for (let i = 0; i < total; i++) {
        const roll = random();
        if (roll < 0.1) {
          const from = Math.floor(random() * (buffer.length + 5));
          const stop = random() < 0.3 ? new AbortController() : undefined;
          const seen: number[] = [];
          const done = (async () => {
            for await (const item of buffer.read(from, stop?.signal)) seen.push(item);
          })();
          readers.push({ from, ...(stop ? { stop } : {}), seen, done });
        } else if (roll < 0.15) {
          readers[Math.floor(random() * readers.length)]?.stop?.abort();
        } else if (roll < 0.3) {
          await settle();
        }
        buffer.push(i);
      }
      buffer.end();
      await Promise.all(readers.map((r) => r.done));
      for (const reader of readers) {
        const expected = Array.from({ length: Math.max(0, total - reader.from) }, (_, k) => reader.from + k);
        if (reader.stop?.signal.aborted) expect(expected.slice(0, reader.seen.length)).toEqual(reader.seen);
        else expect(reader.seen).toEqual(expected);
      }
    }
  });

  describe("read: next() calls", () => {
    test("next() calls made before the items come are answered in order, then the end", async () => {
      const buffer = new ReplayBuffer<number>();
      const reader = buffer.read();
      const first = reader.next();
      const second = reader.next();
      const third = reader.next();
      buffer.push(1);
      buffer.push(2);
      buffer.end();
      expect(await first).toEqual({ done: false, value: 1 });
      expect(await second).toEqual({ done: false, value: 2 });
      expect(await third).toEqual({ done: true, value: undefined });
      expect(await reader.next()).toEqual({ done: true, value: undefined });
    });

    test("return() while a next() waits ends it, and the reader no longer holds drained back", async () => {
      const buffer = new ReplayBuffer<number>();
      const reader = buffer.read();
      buffer.push(1);
      expect(await reader.next()).toEqual({ done: false, value: 1 });
      let drained = false;
      void buffer.drained().then(() => (drained = true));
      await settle();
      expect(drained).toBe(false); // it holds the item it was handed
      const waiting = reader.next();
      await settle();
      expect(drained).toBe(true); // back for more: it acted on it
      buffer.push(2);
      const pending = reader.next();
      await reader.return();
      expect(await waiting).toEqual({ done: false, value: 2 });
      expect(await pending).toEqual({ done: true, value: undefined });
      buffer.push(3);
      await buffer.drained();
    });

    test("a failed buffer rejects the waiting next() once its items are read", async () => {
      const buffer = new ReplayBuffer<number>();
      const reader = buffer.read();
      const first = reader.next();
      const second = reader.next();
      buffer.push(1);
      buffer.fail(new Error("boom"));
      expect(await first).toEqual({ done: false, value: 1 });
      await expect(second).rejects.toThrow("boom");
      expect(await reader.next()).toEqual({ done: true, value: undefined });
    });

    test("an abort ends a waiting next()", async () => {
      const buffer = new ReplayBuffer<number>();
      const abort = new AbortController();
      const reader = buffer.read(0, abort.signal);
      const waiting = reader.next();
      abort.abort();
      expect(await waiting).toEqual({ done: true, value: undefined });
      await buffer.drained();
    });
  });

  describe("follow", () => {
    function sink<T>() {
      const got: T[] = [];
      const calls: string[] = [];
      return {
        got,
        calls,
        sink: {
          item: (value: T) => {
            got.push(value);
            calls.push("item");
          },
          end: () => calls.push("end"),
          fail: (error: unknown) => calls.push(`fail ${(error as Error).message}`),
        },
      };
    }

    test("hands every item over in order, never inside push, then the end", async () => {
      const buffer = new ReplayBuffer<number>();
      buffer.push(1);
      const s = sink<number>();
      buffer.follow(s.sink);
      expect(s.got).toEqual([]); // not inside follow either
      await settle();
      expect(s.got).toEqual([1]);
      buffer.push(2);
      buffer.push(3);
      expect(s.got).toEqual([1]);
      await settle();
      expect(s.got).toEqual([1, 2, 3]);
      buffer.end();
      await settle();
      expect(s.calls).toEqual(["item", "item", "item", "end"]);
    });

    test("a failed buffer hands over what it has, then the error; from an index", async () => {
      const buffer = new ReplayBuffer<string>();
      buffer.push("a");
      buffer.push("b");
      buffer.fail(new Error("boom"));
      const s = sink<string>();
      buffer.follow(s.sink, { from: 1 });
      await settle();
      expect(s.got).toEqual(["b"]);
      expect(s.calls.at(-1)).toBe("fail boom");
    });

    test("counts as a reader: drained once handed over, dropUnread takes what was not", async () => {
      const buffer = new ReplayBuffer<string>({ discardRead: true });
      const s = sink<string>();
      buffer.follow(s.sink);
      buffer.push("a");
      let drained = false;
      void buffer.drained().then(() => (drained = true));
      expect(buffer.dropUnread()).toEqual(["a"]);
      buffer.push("b");
      await settle();
      expect(s.got).toEqual(["b"]);
      expect(drained).toBe(true);
      expect(() => buffer.read()).toThrow(TypeError); // discardRead: one reader
    });

    test("stopped, it hears nothing more and no longer holds drained back", async () => {
      const buffer = new ReplayBuffer<number>();
      const s = sink<number>();
      const stop = buffer.follow(s.sink);
      buffer.push(1);
      stop();
      await buffer.drained();
      buffer.push(2);
      buffer.end();
      await settle();
      expect(s.calls).toEqual([]);
    });

    test("`now`: the items it names are handed over inside push when nothing waits ahead of them; order holds", async () => {
      const buffer = new ReplayBuffer<string>({ discardRead: true });
      const s = sink<string>();
      buffer.follow(s.sink, { now: (item) => item.startsWith("text") });
      await settle();
      buffer.push("text 1");
      expect(s.got).toEqual(["text 1"]); // inside push
      expect(buffer.isDrained).toBe(true);
      expect(buffer.dropUnread()).toEqual([]);
      buffer.push("update");
      buffer.push("text 2"); // behind an item still to be handed over: waits for it
      expect(s.got).toEqual(["text 1"]);
      await settle();
      expect(s.got).toEqual(["text 1", "update", "text 2"]);
      buffer.push("text 3");
      expect(s.got).toEqual(["text 1", "update", "text 2", "text 3"]);
      buffer.end();
      expect(s.calls.at(-1)).toBe("item"); // the end still comes in a microtask
      await settle();
      expect(s.calls.at(-1)).toBe("end");
    });

    test("a sink may call back into the writer", async () => {
      const buffer = new ReplayBuffer<number>();
      const got: number[] = [];
      buffer.follow({
        item: (n) => {
          got.push(n);
          if (n < 3) buffer.push(n + 1);
        },
        end: () => {},
        fail: () => {},
      });
      buffer.push(1);
      await settle();
      expect(got).toEqual([1, 2, 3]);
    });
  });
});
