import type { Cost } from "../cost/price.js";
import type { CaseChange, CaseComparison, CostComparison, EvalReport, ReportComparison } from "./types.js";

/** Differences smaller than this are noise from floating point, not a change. */
const EPSILON = 1e-9;

/**
 * Lines two reports up case by case (by id): `a` is before, `b` after. A case improved when its mean
 * score over the scorers both reports have went up, regressed when it went down, else it is unchanged.
 * Cases in only one report are listed as `added` (only in `b`) or `removed` (only in `a`).
 *
 * @example
 * const diff = compareReports(lastWeek, today);
 * if (diff.regressed.length > 0) console.error(`regressed: ${diff.regressed.join(", ")}`);
 */
export function compareReports(a: EvalReport, b: EvalReport): ReportComparison {
  for (const [label, report] of [["a", a], ["b", b]] as const) {
    if (typeof report !== "object" || report === null || !Array.isArray(report.cases)) {
      throw new TypeError(`compareReports(a, b): ${label} must be an eval report (what evaluate() returns)`);
    }
  }
  const scorers = Object.keys(b.stats ?? {}).filter((name) => name in (a.stats ?? {}));
  const before = new Map(a.cases.map((result) => [result.id, result]));
  const afterIds = new Set(b.cases.map((result) => result.id));
  const comparison: ReportComparison = {
    cases: [],
    improved: [],
    regressed: [],
    unchanged: [],
    added: [],
    removed: a.cases.filter((result) => !afterIds.has(result.id)).map((result) => result.id),
    scorers: {},
    cost: compareCost(a.cost, b.cost),
  };
  for (const after of b.cases) {
    const previous = before.get(after.id);
    if (!previous) {
      comparison.added.push(after.id);
      continue;
    }
    const scores: CaseComparison["scores"] = {};
    let total = 0;
    for (const name of scorers) {
      const was = previous.scores[name] ?? 0;
      const now = after.scores[name] ?? 0;
      scores[name] = { before: was, after: now, delta: now - was };
      total += now - was;
    }
    const mean = scorers.length === 0 ? 0 : total / scorers.length;
    const change: CaseChange = mean > EPSILON ? "improved" : mean < -EPSILON ? "regressed" : "unchanged";
    comparison[change].push(after.id);
    comparison.cases.push({
      id: after.id,
      input: after.input,
      change,
      scores,
      failedBefore: previous.error !== undefined,
      failedAfter: after.error !== undefined,
      cost: compareCost(previous.cost, after.cost),
    });
  }
  for (const name of scorers) {
    const was = a.stats[name]!.mean;
    const now = b.stats[name]!.mean;
    comparison.scorers[name] = { before: was, after: now, delta: now - was };
  }
  return comparison;
}

/** Two costs in USD and their difference; undefined where one is not known (an older report has none). */
function compareCost(before: Cost | undefined, after: Cost | undefined): CostComparison {
  const comparison: CostComparison = {};
  if (before?.usd !== undefined) comparison.before = before.usd;
  if (after?.usd !== undefined) comparison.after = after.usd;
  if (before?.usd !== undefined && after?.usd !== undefined) comparison.delta = after.usd - before.usd;
  return comparison;
}
