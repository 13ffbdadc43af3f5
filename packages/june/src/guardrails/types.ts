/**
 * What a guardrail's check returns: nothing (`undefined`, `null`, `false` or `""`) to pass, or the reason it
 * trips, a string. Sync or async; a check may call a model (once per turn or call, never per token).
 */
export type GuardrailVerdict = string | undefined | null | void | false;

/** A check of the turn's input, before the responder answers it. */
export interface InputGuardrail {
  readonly name: string;
  check(args: { input: string }): GuardrailVerdict | PromiseLike<GuardrailVerdict>;
  /**
   * `"before"` (the default): the responder starts only once every input check passed, so a trip leaves the
   * model uncalled and no tool run. `"beside"`: the responder starts at once and its events are held until
   * the checks pass; a trip cancels it. Faster, but the model is called (and, for a workflow, a tool may run)
   * before the check is in.
   */
  readonly run?: "before" | "beside";
}

/** A check of the reply's text, once it is whole. */
export interface OutputGuardrail {
  readonly name: string;
  check(args: { text: string }): GuardrailVerdict | PromiseLike<GuardrailVerdict>;
  /**
   * `"hold"` (the default): the reply's text is held until the check passes, then released at once; a trip
   * streams none of it. `"end"`: the text streams as it comes and is checked at the end; a trip blocks the
   * turn after the fact (the journal keeps no reply, every surface shows the turn blocked).
   */
  readonly stream?: "hold" | "end";
}

/** A check of one tool call: its input before it is approved or run, its output before the model sees it. */
export interface ToolGuardrail {
  readonly name: string;
  check(args: { toolName: string; input: unknown; output?: undefined } | { toolName: string; input?: undefined; output: unknown }): GuardrailVerdict | PromiseLike<GuardrailVerdict>;
}

/** `guardrails` of `createChat`, `<Agent>` and `<Step>`. */
export interface Guardrails {
  readonly input?: readonly InputGuardrail[];
  readonly output?: readonly OutputGuardrail[];
  readonly tool?: readonly ToolGuardrail[];
}

/** The first guardrail that tripped, in the order given. */
export interface Trip {
  readonly name: string;
  readonly reason: string;
}
