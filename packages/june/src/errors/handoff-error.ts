import { JuneError } from "./june-error.js";

/**
 * A turn of `agentResponder({ agents })` that could not hand off: to an agent the responder does not have, to
 * the agent handing off, back to an agent that already answered this turn (a loop), or past `maxHandoffs`.
 * The turn fails; `chain` names the agents it went through, the refused one last.
 */
export class HandoffError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.HandoffError");
  override readonly name = "HandoffError";
  /** Why: `unknown` agent, to `itself`, a `loop` back to an agent that ran this turn, or past the `limit`. */
  readonly problem: "unknown" | "itself" | "loop" | "limit";
  /** The agents the turn went through, in order, ending with the one it was refused to hand off to. */
  readonly chain: readonly string[];
  /** The turn's `maxHandoffs`. */
  readonly maxHandoffs: number;
  constructor(options: { problem: HandoffError["problem"]; chain: readonly string[]; maxHandoffs: number; agents: readonly string[] }) {
    const chain = options.chain.join(" -> ");
    const from = options.chain.at(-2) ?? "?";
    const to = options.chain.at(-1) ?? "?";
    const why =
      options.problem === "unknown"
        ? `there is no agent ${JSON.stringify(to)} (the agents are ${options.agents.join(", ")})`
        : options.problem === "itself"
          ? `"${from}" handed off to itself`
          : options.problem === "loop"
            ? `"${to}" already answered this turn (a loop)`
            : `a turn hands off at most ${options.maxHandoffs} time${options.maxHandoffs === 1 ? "" : "s"} (maxHandoffs)`;
    super(`agentResponder: the handoff ${chain} was refused: ${why}`);
    this.problem = options.problem;
    this.chain = Object.freeze([...options.chain]);
    this.maxHandoffs = options.maxHandoffs;
  }
}
