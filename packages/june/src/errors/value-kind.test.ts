import { describe, expect, it } from "vitest";
import { valueKind } from "./value-kind.js";

describe("valueKind", () => {
  it("names the kind of a value, never the value", () => {
    expect([null, undefined, [], Promise.resolve(1), {}, () => 1, "secret", 1, true, 1n].map(valueKind)).toEqual([
      "null",
      "nothing",
      "an array",
      "a promise",
      "an object",
      "a function",
      "a string",
      "a number",
      "a boolean",
      "a bigint",
    ]);
  });
});
