import { JuneError } from "../../../errors/june-error.js";

/** An `agentResponder` whose `reply(result)` returned something other than a string. The turn fails. */
export class AgentReplyError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.AgentReplyError");
  override readonly name = "AgentReplyError";
  /** What kind of value `reply` returned instead (`valueKind`: "a number", "an object", "a promise", "nothing", ...). */
  readonly received: string;
  readonly responderId?: string;
  constructor(options: { received: string; responderId?: string }) {
    const who = options.responderId === undefined ? "agentResponder" : `agentResponder "${options.responderId}"`;
    const hint = options.received === "a promise" ? " (reply must be synchronous: pick the text from the RunResult)" : "";
    super(`${who}: reply(result) must return a string, but it returned ${options.received}${hint}`);
    this.received = options.received;
    this.responderId = options.responderId;
  }
}

/**
 * An `agentResponder` with `stream: { step }` whose final reply does not continue the text that step
 * streamed. The turn fails rather than showing one answer and keeping another.
 */
export class StreamMismatchError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StreamMismatchError");
  override readonly name = "StreamMismatchError";
  /** The streamed step's id. */
  readonly stepId: string;
  /** How many characters had streamed. */
  readonly streamedChars: number;
  /** The first character index where the reply and the streamed text differ. */
  readonly mismatchAt: number;
  constructor(options: { stepId: string; streamedChars: number; mismatchAt: number; during?: "stream" | "reply" }) {
    const what =
      options.during === "stream"
        ? `step "${options.stepId}" rewrote text it had already streamed`
        : `reply(result) does not continue the ${options.streamedChars} characters step "${options.stepId}" streamed`;
    super(
      `${what} (they differ at character ${options.mismatchAt}). Stream a step whose result is its whole text, ` +
        "and put tool calls in earlier steps.",
    );
    this.stepId = options.stepId;
    this.streamedChars = options.streamedChars;
    this.mismatchAt = options.mismatchAt;
  }
}
