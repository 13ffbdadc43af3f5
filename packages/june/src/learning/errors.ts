import { JuneError } from "../errors/june-error.js";

/** A scorer that threw, or gave something other than a number from 0 to 1. Recorded in the case's result. */
export class ScorerError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ScorerError");
  override readonly name = "ScorerError";
  readonly scorer: string;
  readonly caseId: string;
  constructor(message: string, options: { scorer: string; caseId: string; cause?: unknown }) {
    super(message, options);
    this.scorer = options.scorer;
    this.caseId = options.caseId;
  }
}

/** An `llmJudge` reply with no score from 0 to 1 in it. */
export class JudgeResponseError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.JudgeResponseError");
  override readonly name = "JudgeResponseError";
  /** The judge's reply, cut to 200 characters. */
  readonly text: string;
  constructor(message: string, options: { text: string; cause?: unknown }) {
    super(message, options);
    this.text = options.text.length > 200 ? `${options.text.slice(0, 200)}…` : options.text;
  }
}

/** An eval case (or a JSONL line of one) that is not a valid `EvalCase`. */
export class EvalCaseFormatError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.EvalCaseFormatError");
  override readonly name = "EvalCaseFormatError";
  /** The 1-based line of the JSONL text, when the case came from one. */
  readonly line?: number;
  constructor(message: string, options: { line?: number; cause?: unknown } = {}) {
    super(options.line === undefined ? message : `line ${options.line}: ${message}`, options);
    if (options.line !== undefined) this.line = options.line;
  }
}
