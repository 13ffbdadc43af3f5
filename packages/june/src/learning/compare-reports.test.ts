import type { Responder } from "june/chat";
import { compareReports, evaluate, exactMatch, includes, type EvalCase } from "june/learning";
import { describe, expect, test } from "vitest";

const evalCase = (id: string, reply: string): EvalCase => ({
  id,
  input: id,
  messages: [],
  reply,
  metadata: { sessionId: "s", turnId: id, responder: { kind: "custom" }, at: "2024-01-01T00:00:00.000Z" },
});

const answering = (version: string, replies: Record<string, string>): Responder => ({
  version,
  respond: ({ input }) => (input === "crash" && version === "v2" ? { result: Promise.reject(new Error("v2 broke")) } : { result: Promise.resolve({ text: replies[input] ?? "?" }) }),
});

describe("compareReports", () => {
  test("lines two versions up case by case: improved, regressed, unchanged, added, removed", async () => {
    const cases = [evalCase("fixed", "red apple"), evalCase("broke", "blue sky"), evalCase("same", "green"), evalCase("crash", "ok"), evalCase("gone", "x")];
    const scorers = { exact: exactMatch(), words: includes() };
    const before = await evaluate(answering("v1", { fixed: "red", broke: "blue sky", same: "green", crash: "ok", gone: "x" }), cases, { scorers });
    const after = await evaluate(
      answering("v2", { fixed: "red apple", broke: "blue", same: "green", new: "n" }),
      [...cases.filter((c) => c.id !== "gone"), evalCase("new", "n")],
      { scorers },
    );
    const diff = compareReports(before, after);
    expect(diff.improved).toEqual(["fixed"]);
    expect(diff.regressed).toEqual(["broke", "crash"]);
    expect(diff.unchanged).toEqual(["same"]);
    expect(diff.added).toEqual(["new"]);
    expect(diff.removed).toEqual(["gone"]);
    const fixed = diff.cases.find((c) => c.id === "fixed")!;
    expect(fixed).toEqual({
      id: "fixed",
      input: "fixed",
      change: "improved",
      scores: { exact: { before: 0, after: 1, delta: 1 }, words: { before: 0, after: 1, delta: 1 } },
      failedBefore: false,
      failedAfter: false,
    });
    expect(diff.cases.find((c) => c.id === "crash")).toMatchObject({ failedBefore: false, failedAfter: true, change: "regressed" });
    expect(diff.scorers.exact).toEqual({
      before: before.stats.exact!.mean,
      after: after.stats.exact!.mean,
      delta: after.stats.exact!.mean - before.stats.exact!.mean,
    });
  });

  test("only scorers both reports have are compared", async () => {
    const cases = [evalCase("a", "yes")];
    const responder = answering("v1", { a: "yes" });
    const a = await evaluate(responder, cases, { scorers: { exact: exactMatch(), only: () => 0 } });
    const b = await evaluate(responder, cases, { scorers: { exact: exactMatch(), other: () => 1 } });
    const diff = compareReports(a, b);
    expect(Object.keys(diff.scorers)).toEqual(["exact"]);
    expect(diff.unchanged).toEqual(["a"]);
    expect(() => compareReports(a, {} as never)).toThrow(/b must be an eval report/);
  });
});
