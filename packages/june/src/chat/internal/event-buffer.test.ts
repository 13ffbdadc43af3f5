import { describe, expect, test } from "vitest";
import { EventBuffer } from "./event-buffer.js";

async function drain<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("EventBuffer", () => {
  test("every reader starts from the first item, early or late", async () => {
    const buffer = new EventBuffer<number>();
    const early = drain(buffer);
    buffer.push(1);
    buffer.push(2);
    const middle = drain(buffer);
    await Promise.resolve();
    buffer.push(3);
    buffer.close();
    const late = drain(buffer);
    expect(await early).toEqual([1, 2, 3]);
    expect(await middle).toEqual([1, 2, 3]);
    expect(await late).toEqual([1, 2, 3]);
  });

  test("pushes after close are dropped and a reader may stop early", async () => {
    const buffer = new EventBuffer<string>();
    buffer.push("a");
    buffer.push("b");
    buffer.close();
    buffer.push("c");
    expect(buffer.length).toBe(2);
    for await (const item of buffer) {
      expect(item).toBe("a");
      break;
    }
    expect(await drain(buffer)).toEqual(["a", "b"]);
  });
});
