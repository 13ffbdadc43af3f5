import { JuneError } from "./june-error.js";

/** Which guardrail list tripped: the turn's input, the reply, or a tool call's input or output. */
export type GuardrailStage = "input" | "output" | "tool-input" | "tool-output";

/**
 * A guardrail's check returned a reason: the input, reply or tool call it checked is blocked. A chat turn it
 * ends has the status `blocked`; a tool call it trips is denied (input) or answers the model with this error
 * (output). The message names the guardrail and its reason, never the text it checked.
 */
/** The `GuardrailTrippedError` that `error` is, or was caused by (a run's `RunError` around a step's trip). */
export function guardrailTrip(error: unknown): GuardrailTrippedError | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (GuardrailTrippedError.isInstance(e)) return e;
  }
  return undefined;
}

export class GuardrailTrippedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.GuardrailTrippedError");
  override readonly name = "GuardrailTrippedError";
  /** The guardrail's `name`. */
  readonly guardrail: string;
  /** What its check returned. */
  readonly reason: string;
  readonly stage: GuardrailStage;
  /** The tool whose call it checked (stages `tool-input` and `tool-output`). */
  readonly toolName?: string;
  constructor(options: { guardrail: string; reason: string; stage: GuardrailStage; toolName?: string }) {
    super(`Blocked by guardrail "${options.guardrail}": ${options.reason}`);
    this.guardrail = options.guardrail;
    this.reason = options.reason;
    this.stage = options.stage;
    if (options.toolName !== undefined) this.toolName = options.toolName;
  }
}
