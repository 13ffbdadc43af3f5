import type {
  FinishReason,
  LanguageModel,
  LanguageModelResponseMetadata,
  LanguageModelUsage,
  ModelMessage,
  OutputInterface,
  TextStreamPart,
  ToolSet,
} from "ai";
import type { ApprovalOutcome } from "./approvals.js";
import type { PolicyDecision } from "./tool-approval.js";
import { endFields, toTraceError, type RunState } from "./run-state.js";
import type { Release } from "./scheduler.js";
import type { SteerInbox } from "./steer.js";
import type { ApprovalState, CallSettings, ModelAttemptFailure, ModelInfo, TraceMessage } from "./types.js";
import { addUsage, toUsage } from "./usage.js";
import { within } from "../telemetry/ai-sdk.js";
import { promptExcerpt, responseExcerpt } from "./message-excerpt.js";
import { stepResponse, streamModel } from "../ai-sdk/stream-model.js";

/** What one `streamText` call of a step needs. */
export interface CallInput {
  readonly run: RunState;
  readonly stepId: string;
  readonly stepNodeId: string;
  readonly model: LanguageModel;
  readonly modelInfo: ModelInfo;
  readonly system: string | undefined;
  readonly settings: CallSettings;
  readonly tools: ToolSet | undefined;
  readonly output: OutputInterface | undefined;
  /** The conversation so far (the prompt, earlier calls, approval responses). */
  readonly history: ModelMessage[];
  /** The step's signal. */
  readonly signal: AbortSignal;
  readonly inbox: SteerInbox;
  /** Trace node of each tool call the step made, by `toolCallId` (a resumed call reports earlier calls). */
  readonly toolNodes: Map<string, string>;
  /** Tool calls the step's `toolApproval` decided (by tool call id): answered at once, never shown pending. */
  readonly policyDecisions?: ReadonlyMap<string, PolicyDecision>;
  /** The MCP server and tool name of each MCP tool, by the name the model calls it. */
  readonly mcpOrigins?: ReadonlyMap<string, { readonly server: string; readonly tool: string }>;
}

/** The model call's last `finish-step`: what `Output.parseCompleteOutput` needs. */
export interface FinishInfo {
  readonly response: Pick<LanguageModelResponseMetadata, "id" | "timestamp" | "modelId">;
  readonly usage: LanguageModelUsage;
  readonly finishReason: FinishReason;
}

/** A tool call waiting for a decision. Its wait never rejects. */
export interface OpenApproval {
  readonly approvalId: string;
  readonly wait: Promise<ApprovalOutcome>;
  /** The call it decides (what a checkpoint keeps). */
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
}

/** How one call ended: interrupted by steer input, or finished (maybe with tool calls or approvals). */
export type CallOutcome =
  | { readonly kind: "interrupted"; readonly messages: ModelMessage[]; readonly text: string }
  | {
      readonly kind: "finished";
      readonly messages: ModelMessage[];
      /**
       * This call's own response messages (the assistant's text and tool calls, then the results of the tools
       * the AI SDK ran), as `responseMessages` produced them: the tail of `messages`.
       */
      readonly response: readonly ModelMessage[];
      readonly text: string;
      /** Every client tool call has a result: the tool loop goes on. */
      readonly continues: boolean;
      readonly approvals: readonly OpenApproval[];
      readonly finish: FinishInfo | undefined;
    };

/**
 * One model call: a `streamText` limited to one LLM call (the step loops itself, so it controls the messages
 * between calls). Reads `fullStream` into the trace, rethrows `error` parts, opens approval requests (commit
 * first, announce second), takes a concurrency slot right before the request and takes steer input then too.
 * While the call is still writing text (no tool call yet), new steer input interrupts it.
 */
export async function callModel(input: CallInput): Promise<CallOutcome> {
  const { run, signal, history, inbox } = input;
  const { trace } = run;
  // One controller for the call, linked to the step's signal by one listener (no AbortSignal.any per call), which
  // also cancels the reader; a steer's interrupt does both itself.
  const interrupt = new AbortController();
  const callSignal = interrupt.signal;
  let reader: ReadableStreamDefaultReader<TextStreamPart<ToolSet>> | undefined;
  // Whether `callSignal` aborted, read once a part (a field, not the signal's getter): only this function aborts it.
  let stopped = false;
  const abortCall = (reason: unknown): void => {
    stopped = true;
    interrupt.abort(reason);
    // Canceling the reader ends a pending read.
    reader?.cancel(reason).catch(() => {});
  };
  const onAbort = (): void => abortCall(signal.reason);
  if (signal.aborted) {
    stopped = true;
    interrupt.abort(signal.reason);
  } else signal.addEventListener("abort", onAbort, { once: true });
  let prepared: ModelMessage[] | undefined;
  let carried = 0;
  let interruptible = false;
  let release: Release | undefined;
  let stepMessages: readonly ModelMessage[] | undefined;
  inbox.onInput = () => {
    // Internal: the reason of this call's own controller, read by nothing outside it (the call ends "interrupted").
    if (interruptible && !signal.aborted && !callSignal.aborted) abortCall(new Error("june: steer input interrupts this call"));
  };

  let callNodeId: string | undefined;
  let attemptStartedAt: number | undefined;
  // The call's node, made when its first request starts (so a request that fails, and each retry, shows).
  const openNode = (): string => {
    callNodeId ??= trace.add(input.stepNodeId, {
      kind: "model-call",
      name: input.modelInfo.modelId,
      status: "running",
      startedAt: Date.now(),
      model: input.modelInfo,
      partialText: "",
      ...promptFields(input.system, prepared ?? history),
    });
    return callNodeId;
  };
  const spans = run.spans?.modelCall(input.stepNodeId, { model: input.modelInfo, settings: input.settings, system: input.system, messages: history });
  const { parts, result } = within(spans, () => streamModel({
    settings: input.settings,
    model: input.model,
    instructions: input.system,
    messages: history,
    tools: input.tools,
    output: input.output,
    oneCall: true,
    abortSignal: callSignal,
    // Each request the AI SDK makes (a retry is another) shows on the node as it starts and fails; the model
    // goes to `streamText` as it is.
    attempts: {
      onAttempt: (attempt, at) => {
        attemptStartedAt = at;
        const nodeId = openNode();
        if (attempt > 1) trace.update(nodeId, { attempt });
      },
      onAttemptError: (attempt, error, at) => {
        if (callSignal.aborted) return;
        const nodeId = openNode();
        const failed = (trace.field(nodeId, "failedAttempts") as readonly ModelAttemptFailure[] | undefined) ?? [];
        const failure: ModelAttemptFailure = { attempt, startedAt: attemptStartedAt ?? at, endedAt: at, error: toTraceError(error) };
        trace.update(nodeId, { failedAttempts: [...failed, failure] });
      },
    },
    prepareStep: async ({ messages }) => {
      release = await run.modelSlots.acquire(callSignal);
      // The AI SDK reads approval responses from the last message only: never put input after them.
      const steer = endsWithApprovalResponse(messages) ? [] : inbox.drain();
      carried = messages.length - history.length;
      // `messages` is the AI SDK's own array for this step: kept as it is when no steer input is added to it.
      prepared = steer.length === 0 ? messages : [...messages, ...steer.map((text): ModelMessage => ({ role: "user", content: text }))];
      interruptible = true;
      return { messages: prepared };
    },
    // The AI SDK builds the step's messages once, here; `await result.response` would tee and re-read the stream.
    onStepEnd: (step) => {
      stepMessages = responseMessages(step.response.messages, carried);
      if (callNodeId) trace.update(callNodeId, { response: responseExcerpt(stepMessages) });
    },
  }));

  let text = "";
  // What earlier calls of this step wrote (an interrupted call's text, before its continuation).
  const stepText = (trace.field(input.stepNodeId, "partialText") as string | undefined) ?? "";
  let finish: FinishInfo | undefined;
  const clientCalls = new Set<string>();
  const answered = new Set<string>();
  const approvals: OpenApproval[] = [];

  const onPart = (part: TextStreamPart<ToolSet>): void => {
    spans?.onPart(part);
    switch (part.type) {
      case "start-step":
        openNode();
        return;
      case "text-delta":
        text += part.text;
        // One string for the call's text, its node's and (after what earlier calls of the step wrote) the
        // step's: `"" + text` is `text` itself, so a step's first call and its result share it.
        if (callNodeId) trace.setText(callNodeId, text);
        trace.setText(input.stepNodeId, stepText + text);
        return;
      case "tool-input-start":
        interruptible = false;
        return;
      case "tool-call": {
        interruptible = false;
        toolNode(input, part);
        if (!part.providerExecuted) clientCalls.add(part.toolCallId);
        return;
      }
      case "tool-approval-request": {
        const byPolicy = input.policyDecisions?.get(part.toolCall.toolCallId);
        approvals.push(byPolicy ? decideByPolicy(input, part.approvalId, part.toolCall, byPolicy) : openApproval(input, part.approvalId, part.toolCall));
        return;
      }
      case "tool-result":
        answered.add(part.toolCallId);
        trace.update(toolNode(input, part), part.preliminary ? { output: part.output } : { output: part.output, status: "done", endedAt: Date.now() });
        return;
      case "tool-error":
        answered.add(part.toolCallId);
        trace.update(toolNode(input, part), { status: "error", endedAt: Date.now(), error: toTraceError(part.error) });
        return;
      case "tool-output-denied": {
        answered.add(part.toolCallId);
        const nodeId = toolNode(input, part);
        const approval = trace.field(nodeId, "approval") as { id: string; reason?: string } | undefined;
        trace.update(nodeId, {
          status: "done",
          endedAt: Date.now(),
          ...(approval ? { approval: { ...approval, state: "denied" satisfies ApprovalState } } : {}),
        });
        return;
      }
      case "finish-step": {
        interruptible = false;
        // Frozen as the trace keeps them (a snapshot copies an unfrozen one to freeze it).
        const usage = Object.freeze(toUsage(part.usage));
        if (callNodeId) {
          trace.update(callNodeId, { status: "done", endedAt: Date.now(), usage, finishReason: part.finishReason });
        }
        trace.update(input.stepNodeId, { usage: Object.freeze(addUsage(trace.field(input.stepNodeId, "usage") as never, usage)) });
        run.usage = addUsage(run.usage, usage);
        finish = { response: part.response, usage: part.usage, finishReason: part.finishReason };
        release?.();
        return;
      }
      case "error":
        throw part.error;
      default:
        return;
    }
  };

  reader = parts.getReader();
  let drained = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (stopped) break;
      if (next.done) break;
      onPart(next.value);
    }
    drained = !callSignal.aborted;
  } catch (error) {
    if (!callSignal.aborted) {
      spans?.fail(error);
      if (callNodeId) trace.update(callNodeId, endFields(error));
      throw error;
    }
  } finally {
    interruptible = false;
    inbox.onInput = undefined;
    release?.();
    signal.removeEventListener("abort", onAbort);
    // The call's controller also aborts when the step's signal does: canceled first, interrupted otherwise.
    spans?.end(signal.aborted ? "canceled" : interrupt.signal.aborted ? "interrupted" : undefined);
    if (!drained && !callSignal.aborted) reader.cancel().catch(() => {});
  }

  signal.throwIfAborted();
  if (callSignal.aborted) {
    if (callNodeId) trace.update(callNodeId, { status: "done", endedAt: Date.now(), finishReason: "interrupted" });
    const written: ModelMessage[] = text ? [{ role: "assistant", content: text }] : [];
    return { kind: "interrupted", messages: [...(prepared ?? history), ...written], text };
  }
  // A stream that ended without a step (no finish-step): the AI SDK's own promise says why.
  const response = stepMessages ?? responseMessages((await result.response).messages, carried);
  const messages = prepared ? [...prepared, ...response] : [...history, ...response];
  const continues = approvals.length === 0 && clientCalls.size > 0 && [...clientCalls].every((id) => answered.has(id));
  return { kind: "finished", messages, response, text, continues, approvals, finish };
}

/** A call's prompt as its node keeps it: bounded, redacted excerpts, never the history itself. */
function promptFields(system: string | undefined, messages: readonly ModelMessage[]): { prompt: TraceMessage[]; promptOmitted?: number } {
  const { prompt, omitted } = promptExcerpt(system, messages);
  return omitted > 0 ? { prompt, promptOmitted: omitted } : { prompt };
}

/**
 * The one place a model call's response messages come from (the assistant's text and tool calls, the results
 * of tools the AI SDK ran): the step's `response.messages` without the `carried` messages in front of them
 * (tool results the AI SDK produced from approval responses before the call, already part of the prompt).
 */
export function responseMessages(stepMessages: readonly ModelMessage[], carried: number): readonly ModelMessage[] {
  return stepResponse(stepMessages, carried);
}

/**
 * Marks the call `pending`, adds the request to `requests`, then commits: the commit that shows the row
 * pending is the first moment anyone can see the request (an observer reads `requests` in `onUpdate`), so a UI
 * that hears of a request already has its row.
 */
export function openApproval(
  input: CallInput,
  approvalId: string,
  toolCall: { toolCallId: string; toolName: string; input: unknown },
  options: { retry?: boolean } = {},
): OpenApproval {
  const { trace, approvals } = input.run;
  const nodeId = toolNode(input, toolCall);
  trace.update(nodeId, { status: "pending", approval: { id: approvalId, state: "pending" } });
  const wait = approvals.open(
    {
      id: approvalId,
      stepId: input.stepId,
      toolName: toolCall.toolName,
      toolCallId: toolCall.toolCallId,
      input: toolCall.input,
      ...(options.retry ? { retry: true } : {}),
      ...mcpOf(input, toolCall.toolName),
    },
    {
      signal: input.signal,
      onSettle: (outcome) => {
        input.run.spans?.approvalSettled(approvalId, outcome);
        switch (outcome.kind) {
          case "approved":
            return trace.update(nodeId, { status: "running", approval: { id: approvalId, state: "approved" } });
          case "denied": {
            const approval = { id: approvalId, state: "denied" as const, ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}) };
            return trace.update(nodeId, { status: "done", endedAt: Date.now(), approval });
          }
          case "withdrawn":
            return trace.update(nodeId, { status: "canceled", endedAt: Date.now() });
          default: {
            const unreachable: never = outcome;
            // Internal invariant (bare Error on purpose): the `never` check above makes this unreachable.
            throw new Error(`june: unknown approval outcome ${String(unreachable)}`);
          }
        }
      },
    },
  );
  trace.flush();
  return { approvalId, wait, toolCall: { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input } };
}

/**
 * A tool call the step's `toolApproval` decided: settled at once and never added to `requests` (no one is
 * asked). Its trace row, the run's list of policy decisions (what the journal records) and its span say
 * `decidedBy: "policy"` with the reason; a denial is marked so the tool never executes, and its reason
 * reaches the model with the approval response.
 */
export function decideByPolicy(
  input: CallInput,
  approvalId: string,
  toolCall: { toolCallId: string; toolName: string; input: unknown },
  decision: PolicyDecision,
): OpenApproval {
  const { trace, approvals } = input.run;
  const nodeId = toolNode(input, toolCall);
  const reason = decision.reason !== undefined ? { reason: decision.reason } : {};
  const outcome: ApprovalOutcome = decision.approved ? { kind: "approved" } : { kind: "denied", ...reason };
  const approval = { id: approvalId, state: decision.approved ? ("approved" as const) : ("denied" as const), decidedBy: "policy" as const, ...reason };
  if (!decision.approved) approvals.markDenied(input.stepId, toolCall.toolCallId);
  approvals.recordPolicyDecision({ id: approvalId, stepId: input.stepId, toolName: toolCall.toolName, toolCallId: toolCall.toolCallId, approved: decision.approved, ...reason });
  input.run.spans?.approvalSettled(approvalId, outcome, "policy");
  trace.update(nodeId, decision.approved ? { status: "running", approval } : { status: "done", endedAt: Date.now(), approval });
  return { approvalId, wait: Promise.resolve(outcome), toolCall: { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input } };
}

/** The trace node of a tool call, made in this call or an earlier one of the step (created if unseen). */
export function toolNode(input: CallInput, part: { toolCallId: string; toolName: string; input?: unknown }): string {
  const existing = input.toolNodes.get(part.toolCallId);
  if (existing) return existing;
  const nodeId = input.run.trace.add(input.stepNodeId, {
    kind: "tool-call",
    name: part.toolName,
    status: "running",
    startedAt: Date.now(),
    toolName: part.toolName,
    toolCallId: part.toolCallId,
    input: part.input,
    ...mcpOf(input, part.toolName),
  });
  input.toolNodes.set(part.toolCallId, nodeId);
  return nodeId;
}

/** `{ mcp: { server, tool } }` for a tool of an MCP server, else nothing. */
function mcpOf(input: CallInput, toolName: string): { mcp?: { server: string; tool: string } } {
  const origin = input.mcpOrigins?.get(toolName);
  return origin ? { mcp: { server: origin.server, tool: origin.tool } } : {};
}

function endsWithApprovalResponse(messages: readonly ModelMessage[]): boolean {
  const last = messages.at(-1);
  return last?.role === "tool" && last.content.some((part) => part.type === "tool-approval-response");
}
