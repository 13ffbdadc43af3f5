import type { EvalCaseResult, ScorerStats } from "./types.js";

/** Per scorer: mean, min, max and how many cases scored at least its threshold. No cases: all zero. */
export function scorerStats(
  results: readonly EvalCaseResult[],
  scorers: readonly string[],
  thresholds: Readonly<Record<string, number>>,
): Record<string, ScorerStats> {
  const stats: Record<string, ScorerStats> = {};
  for (const name of scorers) {
    const threshold = thresholds[name] ?? 0.5;
    const scores = results.map((result) => result.scores[name] ?? 0);
    const count = scores.length;
    stats[name] = {
      mean: count === 0 ? 0 : scores.reduce((sum, score) => sum + score, 0) / count,
      min: count === 0 ? 0 : Math.min(...scores),
      max: count === 0 ? 0 : Math.max(...scores),
      passed: scores.filter((score) => score >= threshold).length,
      count,
      threshold,
    };
  }
  return stats;
}
