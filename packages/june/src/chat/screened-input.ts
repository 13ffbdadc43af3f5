import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { ASK_USER_TOOL } from "../ask/ask-user.js";
import { firstTrip } from "../guardrails/check.js";
import type { Guardrails } from "../guardrails/types.js";
import type { DecisionOutcome } from "../runtime/types.js";
import { deferred, quiet } from "./internal/deferred.js";
import type { ResponderExecution, ResponderResult } from "./types.js";

const NONE: readonly never[] = Object.freeze([]);
const DECIDED: DecisionOutcome = Object.freeze({ kind: "decided" });
const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });

/**
 * `execution` with what a person gives a running turn checked before the model sees it: a steer by the input
 * guardrails, an answer to a question (`ask_user`) by the input guardrails (its text: a string as it is, any
 * other value as JSON) and then by the tool guardrails (as the `ask_user` tool's output). A refused steer
 * throws `GuardrailTrippedError` and is handed on to nothing. An answer is checked by `checkAnswer`, which
 * throws the trip and leaves the question pending (`turn.control({ type: "answer" })` and every route); an
 * answer given with `answer` alone (`turn.answer`, which answers at once) is checked after, and a trip ends
 * the turn `blocked`, its answer never handed on.
 */
export function screenedExecution(execution: ResponderExecution, guardrails: Guardrails): ResponderExecution {
  const inputs = guardrails.input ?? NONE;
  const tools = guardrails.tool ?? NONE;
  if (inputs.length === 0 && tools.length === 0) return execution;
  const refused = deferred<never>();
  quiet(refused.promise);
  /** Answers that passed `checkAnswer`, by request id: `answer` hands them on without checking again. */
  const passed = new Map<string, unknown>();
  /** Answers given unchecked, being checked: the question is taken. */
  const checking = new Set<string>();
  const question = (id: string) => execution.requests?.some((request) => request.id === id && request.question !== undefined) ?? false;
  const checkAnswer = async (id: string, value: unknown): Promise<void> => {
    // Nothing to check for a question not waiting (or no answer): `answer` says what is wrong.
    if (value === undefined || !question(id) || checking.has(id)) return;
    await screen(inputs, tools, value);
    passed.set(id, value);
  };
  const screened: ResponderExecution = {
    result: Promise.race([Promise.resolve(execution.result), refused.promise]) as Promise<ResponderResult>,
    get requests() {
      return execution.requests;
    },
    get policyDecisions() {
      return execution.policyDecisions;
    },
    checkAnswer,
  };
  if (execution.events !== undefined) screened.events = execution.events;
  if (execution.decide) screened.decide = (id, decision) => execution.decide!(id, decision);
  if (execution.checkpoint) screened.checkpoint = () => execution.checkpoint!();
  if (execution.restored) screened.restored = execution.restored;
  if (execution.steer) {
    screened.steer = async (input) => {
      const trip = await firstTrip(inputs, { input });
      if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "input" });
      await execution.steer!(input);
    };
  }
  if (execution.answer) {
    screened.answer = (id, value) => {
      if (passed.has(id) && Object.is(passed.get(id), value)) {
        passed.delete(id);
        return execution.answer!(id, value);
      }
      if (!question(id) || checking.has(id)) return NOT_PENDING;
      checking.add(id);
      screen(inputs, tools, value).then(
        () => {
          checking.delete(id);
          execution.answer!(id, value);
        },
        (error: unknown) => refused.reject(error),
      );
      return DECIDED;
    };
  }
  return screened;
}

/** Throws the first trip of an answer: the input guardrails on its text, then the tool guardrails on it as `ask_user`'s output. */
async function screen(inputs: NonNullable<Guardrails["input"]>, tools: NonNullable<Guardrails["tool"]>, value: unknown): Promise<void> {
  const input = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  const tripped = await firstTrip(inputs, { input });
  if (tripped) throw new GuardrailTrippedError({ guardrail: tripped.name, reason: tripped.reason, stage: "input" });
  const trip = await firstTrip(tools, { toolName: ASK_USER_TOOL, output: value });
  if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "tool-output", toolName: ASK_USER_TOOL });
}
