import { type ModelMessage, type Tool as AITool, type ToolApprovalResponse, type ToolSet } from "ai";
import { parseOutput, toOutput } from "../ai-sdk/output.js";
import { partialOutputs } from "./partial-output.js";
import { CanceledError, MissingModelError, ToolDeniedError } from "./errors.js";
import type { CallInput, OpenApproval } from "./model-engine/call-model.js";
import { steerLoop } from "./model-engine/steer-loop.js";
import { openApproval, stepHost, toolNode, type StepCall } from "./step-call.js";
import { resolveStepTools } from "./step-tools.js";
import { lookup, resolveSettings, resolveTools, toolLayers, type StepPlan } from "./render.js";
import { stepKey, type RunState } from "./run-state.js";
import { hasAgentTools, pendingAgentCalls, runAgentCalls } from "./agent-tool.js";
import { raceAbort } from "./scheduler.js";
import { needsRetry } from "./checkpoint.js";
import type { ApprovalOutcome } from "./approvals.js";
import type { CheckpointRequest, Prompt, RunContext, StepCheckpoint } from "./types.js";
import type { Decided } from "./checkpoint.js";
import { modelInfo } from "./usage.js";
import { isQuestionTool } from "./questions.js";
import { finishedResults, keepOutcome, traceOutput, type KeepOutcome } from "./finished-calls.js";
import { evaluateRule, ruleFor, type PolicyDecision, type ToolApprovalPolicy } from "./tool-approval.js";
import { withAiSdkTelemetry } from "../telemetry/ai-sdk.js";
import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { firstTrip } from "../guardrails/check.js";
import { guardStreamedStep, refusedCall } from "./streamed-step.js";
import { calledStepEndingTool } from "./step-ending-tool.js";
import type { GuardrailVerdict, Guardrails, InputGuardrail, OutputGuardrail, ToolGuardrail } from "../guardrails/types.js";

const DEFAULT_MAX_STEPS = 20;

export interface ModelStepInput {
  readonly plan: StepPlan;
  readonly run: RunState;
  readonly stepNodeId: string;
  readonly ctx: RunContext;
  readonly signal: AbortSignal;
}

/**
 * A model step's tool loop: one `callModel` per LLM call until the model stops (or `maxSteps` calls),
 * pausing for approvals and resuming with their responses, taking steer input at each call. The result is
 * the last call's text (an interrupted call's text followed by its continuation's), or the parsed `output`.
 */
export async function runModelStep({ plan, run, stepNodeId, ctx, signal }: ModelStepInput): Promise<unknown> {
  const model = lookup(plan.scope, (s) => s.model);
  // The step's key in the run: its id, after the path of the sub-workflow it belongs to (a `<Tool agent>`).
  const stepId = stepKey(run, plan.id);
  if (model === undefined) throw new MissingModelError(stepId);
  const layers = toolLayers(plan.scope, plan);
  // A step whose sources add tools now (an MCP server to list) waits for them; most steps start at once.
  const resolving = resolveStepTools(layers, run.sources, ctx, signal);
  const sourced = resolving ? await resolving : undefined;
  // An approved call's outcome that could not be stored stops the step after the call it happened in.
  let unstored: { error: unknown } | undefined;
  const keep: KeepOutcome | undefined = run.checkpoints?.saving
    ? { checkpoints: run.checkpoints, stepId: stepId, onWriteFailed: (error) => void (unstored ??= { error }) }
    : undefined;
  const policyDecisions = new Map<string, PolicyDecision>();
  const policy = plan.props.toolApproval ?? lookup(plan.scope, (s) => s.toolApproval) ?? run.defaults?.toolApproval;
  const guards = stepGuardrails(plan, run);
  // The messages each policy-checked call was sent, by tool call id: what the policy gets for an edit of it.
  const callMessages = new Map<string, ModelMessage[]>();
  const guarded = guardTools(sourced?.tools ?? resolveTools(plan.scope, plan.tools), stepId, run, keep, policy, policyDecisions, guards.tool, callMessages);
  // A streamed step's call of a workflow tool fails the step before the tool runs (June's own tools excepted).
  const streamed = plan.props.stream === true ? guardStreamedStep(guarded, { stepId }) : undefined;
  const tools = streamed?.tools ?? guarded;
  const output = toOutput(plan.props.output);
  const maxSteps = plan.props.maxSteps ?? DEFAULT_MAX_STEPS;
  const inbox = run.steer.open();
  const step: StepCall = {
    run,
    stepId,
    stepNodeId,
    signal,
    toolNodes: new Map<string, string>(),
    editChecks: { tools, toolGuards: guards.tool, ...(policy !== undefined ? { policy } : {}), messages: (toolCallId) => callMessages.get(toolCallId) ?? [] },
    policyDecisions,
    ...(sourced ? { mcpOrigins: sourced.origins } : {}),
    askTools: new Set(Object.keys(tools).filter((name) => isQuestionTool(tools[name]))),
    ...(output ? { onText: partialOutputs(run, stepNodeId, output) } : {}),
  };
  const base = {
    model,
    modelInfo: modelInfo(model),
    system: lookup(plan.scope, (s) => s.instructions),
    settings: withAiSdkTelemetry(resolveSettings(plan.scope), plan.props.experimental_telemetry, run.spans?.telemetry),
    tools: Object.keys(tools).length > 0 ? tools : undefined,
    output,
    signal,
    inbox,
    prices: run.prices,
    budget: run.budget,
  };
  // One call's input: the step's part, the history so far, and a host that reads the step's text as the call
  // starts. Object.assign, not `{ ...base, history }`: V8 builds a literal that spreads a larger object and adds
  // a key on a slow path.
  const callInput = (history: ModelMessage[]): CallInput => {
    // An approved call's outcome that could not be stored fails the step before the next model call.
    if (unstored) throw unstored.error;
    return Object.assign({ history, host: stepHost(step) }, base);
  };
  const checkpoints = run.checkpoints;
  const agents = hasAgentTools(tools);
  /**
   * Runs the `<Tool agent>` calls `messages` leaves unanswered and adds their results. In a durable run the step
   * is saved waiting first (with no requests: its sub-workflows' own steps hold them), and with the results
   * after, so a resume runs a sub-workflow again from its own checkpoint, and never once it answered. Beside
   * approvals of the same call (`save: false`) the step's saved requests stay as they are: a resume runs the
   * sub-workflow again from its own checkpoint.
   */
  const answerAgents = async (messages: ModelMessage[], callsSoFar: number, save: boolean): Promise<ModelMessage[]> => {
    const pending = pendingAgentCalls(messages, tools);
    if (pending.length === 0) return messages;
    const saving = save && checkpoints?.saving === true;
    if (saving) await raceAbort(checkpoints!.stepWaiting(stepId, { messages, requests: [], calls: callsSoFar }), signal);
    const answered = await runAgentCalls(step, pending, messages, tools);
    if (saving) await raceAbort(checkpoints!.stepProgress(stepId, answered, callsSoFar), signal);
    return answered;
  };
  try {
    const saved = checkpoints?.takeWaiting(stepId);
    let history = saved ? [...saved.messages] : await promptOf(plan.props.prompt, ctx, stepId, signal);
    signal.throwIfAborted();
    if (!saved && guards.input.length > 0) await tripOn(guards.input, { input: promptText(history) }, "input", signal);
    let calls = saved?.calls ?? 0;
    if (saved) {
      for (const request of saved.requests) callMessages.set(request.toolCallId, saved.messages);
      const approvals = saved.requests.length > 0 ? reopen(step, saved, policyDecisions) : [];
      checkpoints!.markRestored();
      if (approvals.length > 0) {
        // Approved calls that finished before the process stopped answer with their stored outcome, not a run.
        const answered = await decisions(approvals, history, signal, stepId, run, policyDecisions);
        history = [...answered.messages, { role: "tool", content: [...answered.responses, ...finishedResults(saved.requests)] }];
      }
      // A step that stopped while a `<Tool agent>` ran: the sub-workflow resumes from the checkpoint.
      if (agents) history = await answerAgents(history, calls, saved.requests.length === 0);
    }
    const reply = await steerLoop(callInput, history, async (outcome) => {
      // An approved call's outcome that could not be stored fails the step before anything else happens.
      if (unstored) throw unstored.error;
      const refused = streamed && (streamed.refusal() ?? refusedCall(outcome.messages, tools, stepId));
      if (refused) throw refused;
      calls++;
      if (outcome.approvals.length > 0) {
        if (checkpoints?.saving) {
          // A call decided by policy is saved decided: restored, it is never asked of a person.
          const requests = outcome.approvals.map((approval): CheckpointRequest => {
            const policy = policyDecisions.get(approval.toolCall.toolCallId);
            const decision = policy ? { decision: { approved: policy.approved, ...(policy.reason !== undefined ? { reason: policy.reason } : {}), decidedBy: "policy" as const } } : {};
            return { id: approval.approvalId, ...approval.toolCall, ...decision };
          });
          await raceAbort(checkpoints.stepWaiting(stepId, { messages: outcome.messages, requests, calls }), signal);
        }
        const answered = await decisions(outcome.approvals, outcome.messages, signal, stepId, run, policyDecisions);
        const decided: ModelMessage[] = [...answered.messages, { role: "tool", content: answered.responses }];
        return agents ? answerAgents(decided, calls, false) : decided;
      }
      if (agents && pendingAgentCalls(outcome.messages, tools).length > 0) {
        const next = await answerAgents(outcome.messages, calls, true);
        return calls < maxSteps ? next : "end";
      }
      // A step that waited saves each further call, so a resume never re-asks what was answered since.
      if (checkpoints?.saving && checkpoints.isWaiting(stepId) && outcome.continues && calls < maxSteps) {
        await raceAbort(checkpoints.stepProgress(stepId, outcome.messages, calls), signal);
      }
      // The tool loop goes on until `maxSteps` calls; the last one ends the reply, and so does a step-ending tool's call.
      if (outcome.continues && calledStepEndingTool(outcome.messages, tools)) return "end";
      if (outcome.continues) return calls < maxSteps ? outcome.messages : "end";
      return undefined;
    });
    if (guards.output.length > 0) await tripOn(guards.output, { text: reply.text }, "output", signal);
    return output ? await parseOutput(output, reply.text, reply.finish) : reply.text;
  } finally {
    inbox.close();
  }
}

/**
 * The saved requests of a step that waited, open again with their ids: an undecided one asks again; an
 * approved call that may have begun and left no outcome asks again marked `retry: true` (it never runs without
 * a new decision); a decision taken but not acted on is applied as it was, and a call that finished keeps its
 * stored outcome.
 */
function reopen(step: StepCall, saved: StepCheckpoint, byPolicy: Map<string, PolicyDecision>): OpenApproval[] {
  return saved.requests.map((request) => {
    const toolCall = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.input };
    const decision = request.decision;
    if (decision === undefined || needsRetry(request)) {
      return openApproval(step, request.id, toolCall, { retry: decision !== undefined || request.retry === true });
    }
    const nodeId = toolNode(step, toolCall);
    if (decision.decidedBy === "policy") byPolicy.set(request.toolCallId, { approved: decision.approved, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) });
    // An edited approval stored the input it runs with in place of the model's.
    const outcome: ApprovalOutcome = decision.approved
      ? { kind: "approved", ...(decision.edited ? { input: request.input } : {}) }
      : { kind: "denied", ...(decision.reason !== undefined ? { reason: decision.reason } : {}) };
    if (!decision.approved) step.run.approvals.markDenied(step.stepId, request.toolCallId);
    const approval = {
      id: request.id,
      state: decision.approved ? ("approved" as const) : ("denied" as const),
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      ...(decision.decidedBy === "policy" ? { decidedBy: "policy" as const } : {}),
      ...(decision.edited ? { edited: true as const } : {}),
    };
    const finished = request.output !== undefined ? { status: "done" as const, endedAt: Date.now(), output: traceOutput(request.output) } : {};
    step.run.trace.update(nodeId, decision.approved ? { approval, ...finished } : { status: "done", endedAt: Date.now(), approval });
    return { approvalId: request.id, wait: Promise.resolve(outcome), toolCall };
  });
}

/**
 * Waits for every approval of a call (each wait already races the step's signal): the response parts, and
 * `messages` with each edited call's input replaced, so the tool runs with it and the model sees the call as
 * it ran.
 */
async function decisions(
  approvals: readonly OpenApproval[],
  messages: ModelMessage[],
  signal: AbortSignal,
  stepId: string,
  run: RunState,
  byPolicy: ReadonlyMap<string, PolicyDecision>,
): Promise<{ messages: ModelMessage[]; responses: ToolApprovalResponse[] }> {
  const outcomes = await Promise.all(approvals.map((approval) => approval.wait));
  signal.throwIfAborted();
  if (outcomes.some((outcome) => outcome.kind === "withdrawn")) throw new CanceledError("An approval request was withdrawn");
  const edits = new Map<string, unknown>();
  approvals.forEach((approval, index) => {
    const outcome = outcomes[index]!;
    if (outcome.kind === "approved" && outcome.input !== undefined) edits.set(approval.toolCall.toolCallId, outcome.input);
  });
  if (run.checkpoints?.saving) {
    // Marked started on disk before any approved call executes: a resume never runs it twice.
    const decided = new Map<string, Decided>();
    approvals.forEach((approval, index) => {
      const outcome = outcomes[index]!;
      const policy = byPolicy.get(approval.toolCall.toolCallId);
      // A decision by policy stays one after a restart: its reason (an approval's too) and who decided.
      const reason = outcome.kind === "denied" ? outcome.reason : policy?.reason;
      decided.set(approval.approvalId, {
        approved: outcome.kind === "approved",
        ...(reason !== undefined ? { reason } : {}),
        ...(policy ? { decidedBy: "policy" as const } : {}),
        ...(outcome.kind === "approved" && outcome.input !== undefined ? { input: outcome.input } : {}),
      });
    });
    await raceAbort(run.checkpoints.stepDecided(stepId, decided), signal);
  }
  const responses = approvals.map((approval, index): ToolApprovalResponse => {
    const outcome = outcomes[index]!;
    if (outcome.kind === "withdrawn") throw new CanceledError("An approval request was withdrawn");
    return {
      type: "tool-approval-response",
      approvalId: approval.approvalId,
      approved: outcome.kind === "approved",
      ...(outcome.kind === "denied" && outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    };
  });
  return { messages: edits.size === 0 ? messages : withEditedCalls(messages, edits), responses };
}

/** `messages` with the input of each tool call in `edits` (by tool call id) replaced; the rest shared. */
function withEditedCalls(messages: ModelMessage[], edits: ReadonlyMap<string, unknown>): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== "assistant" || typeof message.content === "string") return message;
    if (!message.content.some((part) => part.type === "tool-call" && edits.has(part.toolCallId))) return message;
    return {
      ...message,
      content: message.content.map((part) => (part.type === "tool-call" && edits.has(part.toolCallId) ? { ...part, input: edits.get(part.toolCallId) } : part)),
    };
  });
}

/**
 * The prompt as messages: a string is one user message; a function is called with the context, and its
 * promise raced against the step's signal. A prompt given as a value needs neither a promise nor a listener.
 */
function promptOf(prompt: Prompt | undefined, ctx: RunContext, stepId: string, signal: AbortSignal): ModelMessage[] | Promise<ModelMessage[]> {
  if (typeof prompt !== "function") return promptMessages(prompt, stepId);
  return raceAbort(prompt(ctx), signal).then((value) => promptMessages(value, stepId));
}

function promptMessages(value: unknown, stepId: string): ModelMessage[] {
  if (typeof value === "string") return [{ role: "user", content: value }];
  if (Array.isArray(value)) return [...(value as ModelMessage[])];
  throw new TypeError(`Step "${stepId}": prompt must be a string or a ModelMessage[], got ${value === null ? "null" : typeof value}`);
}

/**
* The step's tools with its `toolApproval` applied, and defense in depth for approvals: a tool that can ask
 * for approval refuses to execute a call that was denied, whatever the messages say. (The AI SDK already never
 * executes a denied call.) June applies the policy itself, the same on AI SDK 6 and 7: a tool with a rule
 * asks for approval (the AI SDK's `needsApproval`) whenever its rule says anything but `not-applicable`, and
 * a decision by policy is put in `decided` by tool call id, where the model call answers it at once. With
 * `keep`, an approved call's outcome is stored in the checkpoint before it is handed back (`keepOutcome`).
 */
function guardTools(
  tools: Record<string, AITool<any, any>>,
  stepId: string,
  run: RunState,
  keep: KeepOutcome | undefined,
  policy: ToolApprovalPolicy | undefined,
  decided: Map<string, PolicyDecision>,
  toolGuards: readonly ToolGuardrail[],
  callMessages: Map<string, ModelMessage[]>,
): ToolSet {
  const guarded: ToolSet = {};
  const evaluated = new Map<string, ReturnType<typeof evaluateRule>>();
  for (const [name, value] of Object.entries(tools)) {
    const execute = value.execute;
    const rule = ruleFor(policy, name);
    if ((rule === undefined && value.needsApproval === undefined && toolGuards.length === 0) || typeof execute !== "function") {
      guarded[name] = value;
      continue;
    }
    const own = value.needsApproval;
    const needsApproval =
      rule === undefined && toolGuards.length === 0
        ? own
        : async (toolInput: unknown, options: { toolCallId: string; messages: ModelMessage[] }): Promise<boolean> => {
            // The AI SDK asks again when it reads the approval response: the policy decides a call once.
            let pending = evaluated.get(options.toolCallId);
            if (!pending) {
              callMessages.set(options.toolCallId, options.messages);
              pending = (async () => {
                // A tool guardrail checks the call's input first: a trip denies it, by policy, with its reason.
                const trip = await firstTrip(toolGuards, { toolName: name, input: toolInput });
                if (trip) return { type: "denied" as const, reason: new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "tool-input", toolName: name }).message };
                return rule === undefined
                  ? { type: "not-applicable" as const }
                  : evaluateRule(rule, typeof policy === "function", { toolCallId: options.toolCallId, toolName: name, input: toolInput, messages: options.messages, tools });
              })();
              evaluated.set(options.toolCallId, pending);
            }
            const decision = await pending;
            switch (decision.type) {
              case "not-applicable":
                if (typeof own === "function") return Boolean(await own.call(value, toolInput as never, options as never));
                if (own === true) return true;
                // No one needs to decide: the call runs as approved, and the AI SDK runs it right away.
                return false;
              case "user-approval":
                return true;
              case "approved":
              case "denied":
                decided.set(options.toolCallId, { approved: decision.type === "approved", ...(decision.reason !== undefined ? { reason: decision.reason } : {}) });
                return true;
              default: {
                const unreachable: never = decision.type;
                throw new Error(`june: unknown approval status ${String(unreachable)}`);
              }
            }
          };
    guarded[name] = {
      ...value,
      needsApproval,
      execute: (toolInput: unknown, options: { toolCallId: string }) => {
        if (run.approvals.isDenied(stepId, options.toolCallId)) {
          throw new ToolDeniedError({ toolName: name, stepId });
        }
        if (isQuestionTool(value)) {
          // A question's result is the person's answer (a restart between the answer and here asks again).
          const answer = run.approvals.takeAnswer(stepId, options.toolCallId);
          if (!answer) throw new ToolDeniedError({ toolName: name, stepId });
          return keep ? keepOutcome(keep, value, async () => answer.value, { toolCallId: options.toolCallId, input: toolInput }) : answer.value;
        }
        const call = toolGuards.length === 0 ? () => execute.call(value, toolInput, options as never) : () => checkedOutput(toolGuards, name, execute.call(value, toolInput, options as never));
        if (!keep) return call();
        return keepOutcome(keep, value, call, { toolCallId: options.toolCallId, input: toolInput });
      },
    } as AITool<any, any>;
  }
  return guarded;
}

/** A tool's output, checked by the tool guardrails before the model sees it: a trip answers with the refusal (an error). */
async function checkedOutput(guards: readonly ToolGuardrail[], toolName: string, running: unknown): Promise<unknown> {
  const output = await running;
  const trip = await firstTrip(guards, { toolName, output });
  if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "tool-output", toolName });
  return output;
}

/** A step's guardrails: the run's, then each `Agent`'s from the outermost in, then the step's own. */
function stepGuardrails(plan: StepPlan, run: RunState): { input: InputGuardrail[]; output: OutputGuardrail[]; tool: ToolGuardrail[] } {
  const layers: Guardrails[] = [];
  for (let scope: StepPlan["scope"] | undefined = plan.scope; scope !== undefined; scope = scope.parent) if (scope.guardrails) layers.unshift(scope.guardrails);
  if (run.defaults?.guardrails) layers.unshift(run.defaults.guardrails);
  if (plan.props.guardrails) layers.push(plan.props.guardrails);
  return {
    input: layers.flatMap((g) => g.input ?? []),
    output: layers.flatMap((g) => g.output ?? []),
    tool: layers.flatMap((g) => g.tool ?? []),
  };
}

/** Throws `GuardrailTrippedError` when one of `guards` trips on `args`. */
async function tripOn<A>(guards: readonly { name: string; check(args: A): GuardrailVerdict | PromiseLike<GuardrailVerdict> }[], args: A, stage: "input" | "output", signal: AbortSignal): Promise<void> {
  const trip = await raceAbort(firstTrip(guards, args), signal);
  if (trip) throw new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage });
}

/** The text of a step's prompt that an input guardrail reads: its last user message's text. */
function promptText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  return "";
}
