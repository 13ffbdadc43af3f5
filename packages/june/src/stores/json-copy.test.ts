import { describe, expect, it } from "vitest";
import { jsonCopy } from "./json-copy.js";

const roundTrip = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
};

/** A small seeded generator (mulberry32): the same values on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 9 : 13));
  switch (pick) {
    case 0: return "text " + Math.floor(next() * 100);
    case 1: return Math.floor(next() * 1e6) / 7;
    case 2: return next() < 0.5;
    case 3: return null;
    case 4: return undefined;
    case 5: return [Number.NaN, Number.POSITIVE_INFINITY, -0][Math.floor(next() * 3)];
    case 6: return new Date(Date.UTC(2026, 11, 7, Math.floor(next() * 24)));
    case 7: return () => 1;
    case 8: return "ünïcödé \u2028 \ud83d\ude00";
    case 9:
    case 10: return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      const keys = ["a", "b", "10", "2", "__proto__", "toJSONish", "z"];
      for (let i = Math.floor(next() * 5); i > 0; i--) {
        const key = keys[Math.floor(next() * keys.length)]!;
        if (key === "__proto__") Object.defineProperty(out, key, { value: value(next, depth + 1), enumerable: true, writable: true, configurable: true });
        else out[key] = value(next, depth + 1);
      }
      return out;
    }
  }
}

describe("jsonCopy", () => {
  it("equals a JSON round trip on 2,000 seeded random values (key order, own __proto__ fields and all)", () => {
    const next = random(40);
    for (let i = 0; i < 2_000; i++) {
      const v = { type: "turn-end", at: "2026-12-07T00:00:00.000Z", seq: i, payload: value(next, 0) };
      const copied = jsonCopy(v);
      expect(JSON.stringify(copied)).toBe(JSON.stringify(roundTrip(v)));
      expect(copied).toStrictEqual(roundTrip(v));
    }
  });

  it("calls toJSON with the key, unboxes boxed primitives, and copies nothing it was given", () => {
    const inner = { list: [1, { deep: true }] };
    const given = { when: new Date(0), boxed: [new String("s"), new Number(2), new Boolean(false)], custom: { toJSON: (key: string) => `key:${key}` }, inner };
    const copied = jsonCopy(given) as typeof given;
    expect(copied).toStrictEqual(roundTrip(given));
    expect(copied.inner).not.toBe(inner);
    expect(copied.inner.list).not.toBe(inner.list);
    inner.list.push(3);
    expect(copied.inner.list).toHaveLength(2);
  });

  it("throws where JSON.stringify throws: a cycle, a BigInt", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    // The same object twice, not in a cycle, is fine (as for JSON).
    const shared = { x: 1 };
    expect(jsonCopy({ a: shared, b: [shared] })).toStrictEqual({ a: { x: 1 }, b: [{ x: 1 }] });
  });
});
