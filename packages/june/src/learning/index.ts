export { dataset, sessionCases } from "./dataset.js";
export { toEvalCase } from "./eval-case.js";
export { parseJSONL, toJSONL, toJSONLine } from "./jsonl.js";
export { evaluate, EVAL_SESSION_ID } from "./evaluate.js";
export { exactMatch, includes, jsonMatch, named, regex } from "./scorers.js";
export type { ExactMatchOptions, Expected, IncludesOptions, JsonMatchOptions } from "./scorers.js";
export { llmJudge, parseJudgeScore } from "./llm-judge.js";
export type { LlmJudgeOptions } from "./llm-judge.js";
export { compareReports } from "./compare-reports.js";
export { EvalCaseFormatError, JudgeResponseError, ScorerError } from "./errors.js";
export { MAX_FEEDBACK_COMMENT_CHARS, MAX_FEEDBACK_TAG_CHARS, MAX_FEEDBACK_TAGS, normalizeFeedback } from "../chat/feedback.js";
export type {
  CaseChange,
  CaseComparison,
  DatasetFilter,
  DatasetOptions,
  EvalCase,
  EvalCaseMetadata,
  EvalCaseResult,
  EvalError,
  EvalReport,
  EvaluateOptions,
  CostComparison,
  ReportComparison,
  Scorer,
  ScorerContext,
  ScorerStats,
} from "./types.js";
