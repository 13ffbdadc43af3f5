import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { SteerNotSupportedError } from "./errors.js";
import { quiet } from "./internal/deferred.js";
import type { ApprovalRequest, DecisionOutcome, PolicyApproval } from "../runtime/types.js";
import type { Responder, TurnEvent as ResponderEvent, ResponderExecution, ResponderResult, RespondOptions, ResumeOptions } from "./types.js";
import { firstTrip } from "../guardrails/check.js";
import type { Guardrails } from "../guardrails/types.js";
import type { ResponderTraceNode } from "./trace/responder-trace.js";
import { screenedExecution } from "./screened-input.js";

const NONE: readonly never[] = Object.freeze([]);

/**
 * `responder` with the chat's input and output guardrails around each turn. A trip rejects the turn's result
 * with `GuardrailTrippedError`, which the turn ends with as `blocked`.
 *
 * Input guardrails run before `respond` (those with `run: "beside"` beside it, its events held until they
 * pass). Output guardrails check the reply's text once it is whole: while any of them holds (`stream: "hold"`,
 * the default), the reply's `text-delta`s, the model's reasoning and sources (and the trace updates that come with them) are held and released
 * at once when every check passed; none of a blocked reply reaches a surface. With only `stream: "end"`
 * guardrails the text streams as it comes and a trip blocks the turn at its end. A resumed turn (its input
 * passed when it started) is checked on its output only. What a person gives the running turn (a steer, an
 * answer) is checked before the model sees it (see `screenedExecution`).
 */
export function guardedResponder(responder: Responder, guardrails: Guardrails): Responder {
  const inputs = guardrails.input ?? NONE;
  const outputs = guardrails.output ?? NONE;
  if (inputs.length === 0 && outputs.length === 0 && (guardrails.tool ?? NONE).length === 0) return responder;
  const hold = outputs.some((g) => (g.stream ?? "hold") === "hold");
  const guarded: Responder = {
    ...responder,
    respond(given: RespondOptions): ResponderExecution {
      return screenedExecution(respond(hold ? withoutOutputSpans(given) : given), guardrails);
    },
  };
  /** The responder's execution behind the input checks, its reply behind the output checks. */
  function respond(options: RespondOptions): ResponderExecution {
    const before = inputs.filter((g) => (g.run ?? "before") === "before");
    const beside = inputs.filter((g) => g.run === "beside");
    const check = (list: typeof inputs): Promise<void> =>
      firstTrip(list, { input: options.input }).then((trip) => {
        if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "input" });
      });
    if (before.length === 0 && beside.length === 0) return guardOutput(responder.respond(options), outputs);
    // The responder starts once the `before` checks pass; its events flow once the `beside` ones did too.
    const started = check(before).then(() => guardOutput(responder.respond(options), outputs));
    const passed = Promise.all([started, check(beside)]).then(([execution]) => execution);
    return deferredExecution(started, passed, options.turnId);
  }
  if (typeof responder.resume === "function") {
    const resume = responder.resume.bind(responder);
    guarded.resume = (options: ResumeOptions) => screenedExecution(guardOutput(resume(hold ? withoutOutputSpans(options) : options), outputs), guardrails);
  }
  return guarded;
}

/**
 * A held reply's text must not be in a span before its checks pass, and a model call's span ends (and is
 * exported) before they do: below a turn whose reply is held, spans record no content, neither outputs nor
 * inputs (a later call of the turn is sent what the earlier ones wrote). The turn's own span records the reply
 * (`june.turn.output`, with `recordOutputs`) once it passed.
 */
function withoutOutputSpans<O extends RespondOptions | ResumeOptions>(options: O): O {
  const telemetry = options.telemetry;
  if (typeof telemetry !== "object" || telemetry === null || (telemetry.recordOutputs !== true && telemetry.recordInputs !== true)) return options;
  return { ...options, telemetry: { ...telemetry, recordOutputs: false, recordInputs: false } };
}

/** An execution that starts later (`started`) and is let through once `passed`: its events and requests wait. */
function deferredExecution(started: Promise<ResponderExecution>, passed: Promise<ResponderExecution>, turnId: string): ResponderExecution {
  let inner: ResponderExecution | undefined;
  let open = false;
  quiet(started).then((execution) => void (inner = execution), () => {});
  quiet(passed).then(() => void (open = true), () => {});
  return {
    result: passed.then((execution) => execution.result),
    events: (async function* (): AsyncGenerator<ResponderEvent> {
      let execution: ResponderExecution;
      try {
        execution = await passed;
      } catch {
        return;
      }
      if (execution.events) yield* execution.events;
    })(),
    get requests(): readonly ApprovalRequest[] {
      return (open && inner?.requests) || NONE;
    },
    get policyDecisions(): readonly PolicyApproval[] | undefined {
      return open ? inner?.policyDecisions : undefined;
    },
    decide: (id, decision) => (open && inner?.decide ? inner.decide(id, decision) : NOT_PENDING),
    answer: (id, value) => (open && inner?.answer ? inner.answer(id, value) : NOT_PENDING),
    steer: async (input) => {
      const execution = await passed;
      if (!execution.steer) throw new SteerNotSupportedError(turnId);
      await execution.steer(input);
    },
    checkpoint: () => (open ? inner?.checkpoint?.() : undefined),
    // What it spent counts even when a `beside` check blocked it.
    spent: () => inner?.spent?.(),
  };
}

/** The execution with its reply checked by `outputs` before its result (and, while one holds, its text) goes out. */
function guardOutput(execution: ResponderExecution, outputs: Guardrails["output"] & {}): ResponderExecution {
  if (outputs.length === 0) return execution;
  const hold = outputs.some((g) => (g.stream ?? "hold") === "hold");
  // A blocked reply was paid for: what the responder says it spent, else what its result said.
  let reported: ResponderResult["metadata"];
  const result = Promise.resolve(execution.result).then(async (value: ResponderResult) => {
    reported = value?.metadata;
    const trip = await firstTrip(outputs, { text: typeof value?.text === "string" ? value.text : "" });
    if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "output" });
    return value;
  });
  const source = execution.events;
  const spent = () => execution.spent?.() ?? reported;
  const guarded = delegate(execution, result, source, spent);
  if (!hold || source === undefined) return guarded;
  return delegate(
    execution,
    result,
    (async function* (): AsyncGenerator<ResponderEvent> {
      // The reply's text (each run of deltas joined) and the reasoning and sources among it, in order.
      const held: ResponderEvent[] = [];
      let update: (ResponderEvent & { type: "run-update" }) | undefined;
      for await (const event of source) {
        if (event.type === "text-delta") {
          const last = held.at(-1);
          if (last?.type === "text-delta") held[held.length - 1] = { type: "text-delta", text: last.text + event.text };
          else held.push(event);
        } else if (isAside(event)) held.push(event);
        else if (event.type === "run-update") update = event;
        else {
          // A request must not wait on the reply: it goes out with the trace as it stands, less the held text.
          if (update) yield withoutReply(update);
          update = undefined;
          yield event;
        }
      }
      try {
        await result;
      } catch {
        return; // Blocked (or failed): nothing of the held reply goes out.
      }
      yield* held;
      if (update) yield update;
    })(),
    spent,
  );
}

function isAside(event: ResponderEvent): boolean {
  return event.type === "reasoning-start" || event.type === "reasoning-delta" || event.type === "reasoning-end" || event.type === "source";
}

/**
 * A held run update as it may go out before the reply passed its checks: no step's or model call's text
 * (`partialText`, a step's `result`, a call's `response` and `reasoning`), and no assistant message in a call's `prompt` (a later call of the turn is
 * sent what the earlier ones wrote). The whole tree follows once the checks passed.
 */
export function withoutReply(update: ResponderEvent & { type: "run-update" }): ResponderEvent {
  return { type: "run-update", tree: heldNode(update.tree) };
}

function heldNode(node: ResponderTraceNode): ResponderTraceNode {
  const children = node.children.map(heldNode);
  switch (node.kind) {
    case "step": {
      // The runtime's step also carries its `result`: the text it wrote.
      const { partialText: _text, result: _result, ...rest } = node as typeof node & { result?: unknown };
      return { ...rest, children };
    }
    case "model-call": {
      const { partialText: _text, response: _response, reasoning: _reasoning, prompt, ...rest } = node;
      return { ...rest, ...(prompt !== undefined ? { prompt: prompt.filter((message) => message.role !== "assistant") } : {}), children };
    }
    default:
      return { ...node, children };
  }
}

/** `execution` with another result and events; everything else is asked of it (its getters stay its own). */
function delegate(
  execution: ResponderExecution,
  result: Promise<ResponderResult>,
  events: AsyncIterable<ResponderEvent> | undefined,
  spent: () => ResponderResult["metadata"],
): ResponderExecution {
  const guarded: ResponderExecution = {
    result,
    get requests() {
      return execution.requests;
    },
    get policyDecisions() {
      return execution.policyDecisions;
    },
  };
  if (events !== undefined) guarded.events = events;
  if (execution.decide) guarded.decide = (id, decision) => execution.decide!(id, decision);
  if (execution.answer) guarded.answer = (id, value) => execution.answer!(id, value);
  if (execution.steer) guarded.steer = (input) => execution.steer!(input);
  if (execution.checkpoint) guarded.checkpoint = () => execution.checkpoint!();
  if (execution.restored) guarded.restored = execution.restored;
  guarded.spent = spent;
  return guarded;
}

const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });
