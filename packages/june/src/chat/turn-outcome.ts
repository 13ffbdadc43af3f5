import type { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import type { TurnMetadata } from "../stores/types.js";
import type { ResponderResult, TurnStatus } from "./types.js";

/** How a turn ended, as the runner decided it. */
export type TurnOutcome =
  | { status: "completed"; result: ResponderResult; metadata: TurnMetadata }
  | { status: "failed"; error: unknown }
  | { status: "canceled" }
  | { status: "blocked"; error: GuardrailTrippedError }
  | { status: "suspended"; requests: { id: string; toolName: string }[] };

/**
 * Where a turn is: answering (controls open); canceling (a cancel came in: the responder winds down, steers
 * and decisions still reach it); ending (the runner decided the outcome or is suspending the turn: the
 * controls are closed); ended (`finish` settled its result).
 */
export type TurnPhase =
  | { kind: "answering" }
  | { kind: "canceling" }
  | { kind: "ending"; canceled: boolean }
  | { kind: "ended"; status: Exclude<TurnStatus, "running"> };
