import type { ModelMessage } from "ai";
import type { TurnFeedback } from "../chat/types.js";
import type { ModelInfo, Usage } from "../runtime/types.js";
import type { Cost, Prices } from "../cost/price.js";
import type { FileRef, ResponderProvenance } from "../stores/types.js";

/** Where a case came from: the turn that answered it and what answered it. */
export interface EvalCaseMetadata {
  sessionId: string;
  turnId: string;
  /** The responder's provenance: `kind`, `id?`, `version?`. */
  responder: ResponderProvenance;
  model?: ModelInfo;
  usage?: Partial<Usage>;
  /** What the turn cost (left out when its model's price was not known). */
  cost?: Cost;
  /** When the turn was answered (ISO time). */
  at: string;
}

/**
 * One eval case, built from a completed turn: its `input`, the `messages` the turn was answered after
 * (exactly what its responder saw), the `reply` it gave, the latest `feedback` on it, and its provenance.
 */
export interface EvalCase {
  /** `<sessionId>/<turnId>` for a case from a session; any unique string for a hand-written one. */
  id: string;
  input: string;
  /** The files the turn sent, as references (their bytes are in the session's store), when it sent any. */
  files?: FileRef[];
  messages: ModelMessage[];
  /** The recorded reply: what the built-in scorers compare a new reply with. */
  reply: string;
  feedback?: TurnFeedback;
  metadata: EvalCaseMetadata;
}

/** Which cases `dataset()` yields: by feedback, or any predicate of the case. */
export type DatasetFilter = "up" | "down" | "all" | ((evalCase: EvalCase) => boolean);

/** Options for `dataset()`. */
export interface DatasetOptions {
  /**
   * `"all"` (default): every completed turn; `"up"`: those whose latest feedback scored above 0.5 (a
   * thumbs-up is 1); `"down"`: below 0.5 (a thumbs-down is -1); or a predicate of the case.
   */
  filter?: DatasetFilter;
  /** Only these sessions (default: every session of the chat, newest first). */
  sessions?: string[];
}

/** What a scorer may use besides the case and the reply. */
export interface ScorerContext {
  /** Aborts when the eval is canceled. */
  signal: AbortSignal;
}

/**
 * Scores a reply to a case: a number from 0 to 1 (anything else is a `ScorerError` in that case's
 * result). The built-ins compare with the case's recorded `reply` unless told otherwise.
 */
export type Scorer = (evalCase: EvalCase, reply: string, context: ScorerContext) => number | Promise<number>;

/** Options for `evaluate()`. */
export interface EvaluateOptions {
  /** The scorers, by name (a record), or as a list named by each function's `name`. */
  scorers: Record<string, Scorer> | Scorer[];
  /** How many cases run at once (default 4). */
  concurrency?: number;
  /** The score a case needs to pass, for the per-scorer pass counts: one for all, or per scorer (default 0.5). */
  threshold?: number | Record<string, number>;
  /** What to do with a tool call that asks for approval: `"deny"` (default; no one is there to ask) or `"approve"`. */
  approvals?: "deny" | "approve";
  /** A case whose reply takes longer fails with a `TimeoutError` (default: no limit). */
  timeoutMs?: number;
  /** Cancels the eval: cases in flight are aborted and `evaluate` rejects with a `CanceledError`. */
  signal?: AbortSignal;
  /** Called as each case ends, in the order they end. */
  onResult?: (result: EvalCaseResult, done: number, total: number) => void;
  /** Your prices by model id (USD per million tokens), which win over the catalog's for each case's cost. */
  prices?: Prices;
}

/** What went wrong in a case: the responder failed, or a scorer threw or gave a score out of range. */
export interface EvalError {
  name: string;
  message: string;
  /** The scorer that failed; absent when the responder failed. */
  scorer?: string;
}

/** One case of a report. */
export interface EvalCaseResult {
  id: string;
  input: string;
  /** The reply the evaluated responder gave (absent when it failed). */
  reply?: string;
  /** Each scorer's score. A scorer that could not score (the responder or the scorer failed) counts 0. */
  scores: Record<string, number>;
  usage?: Partial<Usage>;
  /** What the reply cost (left out when the model's price is not known). */
  cost?: Cost;
  model?: ModelInfo;
  /** How long the reply took, in milliseconds. */
  timeMs: number;
  /** The first failure, if any; `errors` lists them all when there were several. */
  error?: EvalError;
  errors?: EvalError[];
}

/** One scorer across all cases. */
export interface ScorerStats {
  mean: number;
  min: number;
  max: number;
  /** How many cases scored at least `threshold`. */
  passed: number;
  count: number;
  threshold: number;
}

/** What `evaluate()` returns. JSON-safe. */
export interface EvalReport {
  /** What answered: the responder's provenance. */
  responder: ResponderProvenance;
  startedAt: string;
  /** The whole eval's wall time, in milliseconds. */
  durationMs: number;
  /** In the order the cases were given. */
  cases: EvalCaseResult[];
  /** Per scorer, in the order they were given. */
  stats: Record<string, ScorerStats>;
  /** How many cases failed (the responder or a scorer). */
  failed: number;
  /** What the run's replies cost together; `usd` undefined when a reply's cost is not known. */
  cost: Cost;
}

/** How a case moved between two reports. */
export type CaseChange = "improved" | "regressed" | "unchanged";

/** One case in both reports. */
export interface CaseComparison {
  id: string;
  input: string;
  change: CaseChange;
  /** Per scorer both reports have: the score before and after, and the difference. */
  scores: Record<string, { before: number; after: number; delta: number }>;
  /** Whether the case failed in each report. */
  failedBefore: boolean;
  failedAfter: boolean;
  /** The case's cost in USD in each report, and the difference (each undefined when not known). */
  cost: CostComparison;
}

/** A cost in USD before and after, and the difference: undefined where a cost is not known. */
export interface CostComparison {
  before?: number;
  after?: number;
  delta?: number;
}

/** What `compareReports(a, b)` returns: `a` is before, `b` after. */
export interface ReportComparison {
  cases: CaseComparison[];
  /** Case ids, by how they moved. */
  improved: string[];
  regressed: string[];
  unchanged: string[];
  /** Cases only in `b`, and only in `a`. */
  added: string[];
  removed: string[];
  /** Per scorer both reports have: the mean before and after. */
  scorers: Record<string, { before: number; after: number; delta: number }>;
  /** What each whole run cost, before and after. */
  cost: CostComparison;
}
