/**
 * A deep copy of `value` equal to `JSON.parse(JSON.stringify(value))`, made in one pass with no text in between:
 * `toJSON` called (a `Date` becomes its ISO string), boxed primitives unboxed, non-finite numbers `null`, -0 0,
 * `undefined`, functions and symbols left out of objects and `null` in arrays, only own enumerable string keys
 * copied (a `__proto__` key stays an own field). Throws `TypeError` where `JSON.stringify` would: a cycle, a
 * `BigInt`. For a store that keeps entries in memory (memoryStore): callers cannot change what it keeps, and it
 * keeps what a JSON store would read back, without writing and parsing a line per entry.
 */
export function jsonCopy(value: unknown): unknown {
  return copy(value, "", []);
}

function copy(value: unknown, key: string, stack: object[]): unknown {
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // -0 reads back as 0.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "object":
      break;
    default:
      // undefined, function, symbol: no JSON value (left out of an object, null in an array).
      return undefined;
  }
  if (value === null) return null;
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  if (stack.includes(value)) throw new TypeError("Converting circular structure to JSON");
  stack.push(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const array: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copy(value[i], String(i), stack);
      array[i] = item === undefined ? null : item;
    }
    out = array;
  } else {
    const object: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const k of Object.keys(source)) {
      const item = copy(source[k], k, stack);
      if (item === undefined) continue;
      if (k === "__proto__") Object.defineProperty(object, k, { value: item, enumerable: true, writable: true, configurable: true });
      else object[k] = item;
    }
    out = object;
  }
  stack.pop();
  return out;
}
