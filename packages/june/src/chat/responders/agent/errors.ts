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
  /** The tools the streamed step called (empty when it called none: the cause is then the reply or the step's text). */
  readonly toolCalls: readonly string[];
  constructor(options: { stepId: string; streamedChars: number; mismatchAt: number; during?: "stream" | "reply"; toolCalls?: readonly string[] }) {
    const what =
      options.during === "stream"
        ? `step "${options.stepId}" rewrote text it had already streamed`
        : `reply(result) does not continue the ${options.streamedChars} characters step "${options.stepId}" streamed`;
    const tools = [...new Set(options.toolCalls ?? [])];
    // The hint names the cause: a tool call (the step's result is its last model call's text), else the reply
    // or the step's own text.
    const hint =
      tools.length > 0
        ? `The step called ${tools.map((name) => `"${name}"`).join(", ")}, and its result is only its last model call's text: ` +
          "stream a step that does not call tools, and put tool calls in earlier steps."
        : options.during === "stream"
          ? "No tool was called: the step's text changed under what had streamed. Stream a step whose text only grows."
          : "No tool was called: reply(result) returned other text than the step streamed (a reply that re-formats it). " +
            `Return the streamed text as it is (result.steps.${options.stepId}), or drop \`stream\` to send the reply whole.`;
    super(`${what} (they differ at character ${options.mismatchAt}). ${hint}`);
    this.stepId = options.stepId;
    this.streamedChars = options.streamedChars;
    this.mismatchAt = options.mismatchAt;
    this.toolCalls = tools;
  }
}

