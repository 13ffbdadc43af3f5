import { exactMatch, includes, jsonMatch, regex, type EvalCase } from "june/learning";
import { describe, expect, test } from "vitest";

const signal = new AbortController().signal;
const c = (reply: string, input = "q"): EvalCase => ({
  id: "c",
  input,
  messages: [],
  reply,
  metadata: { sessionId: "s", turnId: "t", responder: { kind: "custom" }, at: "" },
});

describe("built-in scorers", () => {
  test("exactMatch compares with the recorded reply, trimmed; or with what it is told", () => {
    expect(exactMatch()(c("Paris"), "  Paris\n", { signal })).toBe(1);
    expect(exactMatch()(c("Paris"), "paris", { signal })).toBe(0);
    expect(exactMatch({ ignoreCase: true })(c("Paris"), "paris", { signal })).toBe(1);
    expect(exactMatch({ trim: false })(c("Paris"), "Paris ", { signal })).toBe(0);
    expect(exactMatch({ expected: "Lyon" })(c("Paris"), "Lyon", { signal })).toBe(1);
    expect(exactMatch({ expected: (evalCase) => evalCase.input.toUpperCase() })(c("x", "abc"), "ABC", { signal })).toBe(1);
    expect(exactMatch().name).toBe("exactMatch");
  });

  test("includes scores the share of pieces found", () => {
    expect(includes()(c(" Paris "), "It is Paris.", { signal })).toBe(1);
    expect(includes()(c("Paris"), "It is Lyon.", { signal })).toBe(0);
    expect(includes(["a", "b", "c", "d"])(c(""), "a c", { signal })).toBe(0.5);
    expect(includes("PARIS", { ignoreCase: true })(c(""), "paris", { signal })).toBe(1);
    expect(includes([])(c(""), "anything", { signal })).toBe(1);
  });

  test("regex takes a RegExp, a source, or /source/flags", () => {
    expect(regex(/^\d+$/)(c(""), "123", { signal })).toBe(1);
    expect(regex("^hello")(c(""), "Hello", { signal })).toBe(0);
    expect(regex("/^hello/i")(c(""), "Hello", { signal })).toBe(1);
    const global = regex(/a/g);
    expect([global(c(""), "a", { signal }), global(c(""), "a", { signal })]).toEqual([1, 1]);
    expect(() => regex("(")).toThrow(/regex\(pattern\)/);
  });

  test("jsonMatch: deep equality, a share of fields for objects, 0 for a reply that is not JSON", () => {
    const recorded = c('{"a":1,"b":[1,2],"c":{"d":true}}');
    expect(jsonMatch()(recorded, '{"c":{"d":true},"b":[1,2],"a":1}', { signal })).toBe(1);
    expect(jsonMatch()(recorded, '{"a":1,"b":[2,1],"c":{"d":true}}', { signal })).toBeCloseTo(2 / 3);
    expect(jsonMatch()(recorded, "not json", { signal })).toBe(0);
    expect(jsonMatch()(c("[1,2]"), "[1,2]", { signal })).toBe(1);
    expect(jsonMatch()(c("[1,2]"), "[2,1]", { signal })).toBe(0);
    expect(jsonMatch({ expected: 42 })(c("ignored"), "```\n42\n```", { signal })).toBe(1);
    expect(() => jsonMatch()(c("prose"), "{}", { signal })).toThrow(/recorded reply is not JSON/);
  });
});
