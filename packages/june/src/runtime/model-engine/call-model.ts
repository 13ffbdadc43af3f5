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
import type { ApprovalOutcome } from "../approvals.js";
import type { Release } from "../scheduler.js";
import type { SteerInbox } from "../steer.js";
import type { CallSettings, ModelInfo, ModelAttemptFailure, Usage } from "../types.js";
import { toUsage } from "../usage.js";
import { costOf, priceOf, UNKNOWN_COST, type Cost, type Price, type Prices } from "../../cost/price.js";
import { countedUsage } from "../../cost/counted-usage.js";
import { tokenCounter, type TokenCount } from "../../cost/token-counter.js";
import type { ModelCallInfo } from "../../telemetry/model-call-span.js";
import { callNode, type CallEnd, type CallPatch, type NewCallNode } from "./call-node.js";
import { type ModelStream, stepResponse as ownMessages, streamModel } from "../../ai-sdk/stream-model.js";
import { within } from "../../telemetry/ai-sdk.js";
import { modelAside, type ModelAside } from "../../ai-sdk/model-asides.js";
import { excerptText } from "../message-excerpt.js";

/** How much of a call's reasoning its trace node keeps (the head, redacted). */
const REASONING_EXCERPT_CHARS = 600;

/** A call's span (`ModelCallSpan`, or a run's that also tracks the step's tools): it reads every part. */
export interface CallSpan {
  with<T>(fn: () => T): T;
  onPart(part: TextStreamPart<ToolSet>): void;
  fail(error: unknown): void;
  /** What the call cost, before `end`. */
  cost?(cost: Cost): void;
  end(reason?: string): void;
}

type Part<T extends TextStreamPart<ToolSet>["type"]> = Extract<TextStreamPart<ToolSet>, { type: T }>;

/** A step's tools as a call meets them: their trace nodes and approvals (a model chat has none). */
export interface ToolHost {
  /** The model called a tool. */
  called(part: Part<"tool-call">): void;
  /** A call needs a decision: commit first, announce second. */
  approval(approvalId: string, toolCall: OpenApproval["toolCall"]): OpenApproval;
  /** A tool's result (preliminary or final), its error, or its denial. */
  answered(part: Part<"tool-result"> | Part<"tool-error"> | Part<"tool-output-denied">): void;
}

/**
 * Where a call's node and text go: a run's trace (a model step), or a model chat's turn. The engine decides
 * every change (see `callNode`); the host keeps them and shows them.
 */
export interface CallHost {
  /** Adds the call's node, when its first request starts (a request that fails, and each retry, shows); returns its id. */
  open(node: NewCallNode): string;
  update(nodeId: string, patch: CallPatch): void;
  /** The call ended as `end` says; `patch` ends its node (none when the call ended before a request started). */
  end(nodeId: string | undefined, patch: CallPatch, end: CallEnd["kind"]): void;
  /** After each text delta: the call's text so far (one string, grown per delta) and the delta. */
  text(text: string, delta: string, nodeId: string | undefined): void;
  /** What the model sent beside its text (reasoning, a source), in its place among the text deltas. */
  aside?(aside: ModelAside, nodeId: string | undefined): void;
  /** The call's span; undefined when nothing records. */
  span(info: ModelCallInfo): CallSpan | undefined;
  /** A concurrency slot, taken right before the request and given back when its step finishes. */
  acquire?(signal: AbortSignal): Promise<Release>;
  /** The tokens of the call's finished step. */
  usage?(usage: Usage): void;
  /** What the call's finished step cost (after `usage`; unknown when the model's price is). */
  cost?(cost: Cost): void;
  /** What of an interrupted call's text stays in the conversation: what its readers took (default: all of it). */
  kept?(text: string): string;
  readonly tools?: ToolHost;
}

/** What one model call needs. */
export interface CallInput {
  readonly model: LanguageModel;
  readonly modelInfo: ModelInfo;
  readonly system: string | undefined;
  readonly settings: CallSettings;
  readonly tools: ToolSet | undefined;
  readonly output: OutputInterface | undefined;
  /** The conversation so far (the prompt, earlier calls, approval responses). */
  readonly history: ModelMessage[];
  /** The step's (the turn's) signal. */
  readonly signal: AbortSignal;
  readonly inbox: SteerInbox;
  readonly host: CallHost;
  /** Your prices, which win over the catalog's. */
  readonly prices?: Prices | undefined;
  /** Throws (`BudgetExceededError`) when what was spent has reached a budget: called before the call starts, never during it. */
  readonly budget?: (() => void) | undefined;
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

/** A call that finished (maybe with tool calls or approvals). */
export interface FinishedCall {
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
  /** What the call cost: its usage at the model's price (unknown when that is). */
  readonly cost: Cost;
}

/** How one call ended: interrupted by steer input, or finished. */
export type CallOutcome = { readonly kind: "interrupted"; readonly messages: ModelMessage[]; readonly text: string } | FinishedCall;

/**
 * One model call: a `streamModel` limited to one LLM call (the caller loops itself, so it controls the messages
 * between calls). Reads `fullStream` into the host, rethrows `error` parts, opens approval requests (commit
 * first, announce second), takes a concurrency slot right before the request and takes steer input then too.
 * While the call is still writing text (no tool call yet), new steer input interrupts it.
 */
export async function callModel(input: CallInput): Promise<CallOutcome> {
  judgeBudget(input);
  const call = startCall(input);
  // The model's price, looked up while the call runs (the catalog's provider file loads once, on first use).
  const price = priceOf(input.modelInfo, input.prices);
  price.catch(() => {});
  const span = input.host.span({ model: input.modelInfo, settings: input.settings, system: input.system, messages: input.history });
  // Active while the call starts, so the AI SDK's own spans nest below it.
  const { parts, result } = within(span, () => streamCall(call));
  const cost = await readCall(call, span, parts, price);
  return endCall(call, result, cost, price);
}

/** One call's state, shared by its steps (`startCall`, `streamCall`, `readCall`, `endCall`). */
interface Call {
  readonly input: CallInput;
  /** One controller for the call, linked to the step's signal by one listener (no AbortSignal.any per call). */
  readonly interrupt: AbortController;
  readonly onAbort: () => void;
  reader: ReadableStreamDefaultReader<TextStreamPart<ToolSet>> | undefined;
  /** Whether the call's signal aborted, read once a part (a field, not the signal's getter): only this call aborts it. */
  stopped: boolean;
  prepared: ModelMessage[] | undefined;
  carried: number;
  interruptible: boolean;
  release: Release | undefined;
  stepResponse: readonly ModelMessage[] | undefined;
  /** The request went out (its slot taken, its messages final): from here on the call may cost something. */
  sent: boolean;
  nodeId: string | undefined;
  attemptStartedAt: number | undefined;
  failed: readonly ModelAttemptFailure[] | undefined;
  text: string;
  /** What the call's reasoning parts wrote, joined (its node keeps an excerpt). */
  reasoning: string;
  /** The tool calls the model made, as it sent them: counted only when its provider reports no usage. */
  toolCalls: { readonly toolName: string; readonly input: unknown }[];
  finish: FinishInfo | undefined;
  usage: Usage | undefined;
  /** Some of the finished step's usage is June's own count (the provider reported none, or NaN): its cost is unknown. */
  unreported: boolean;
  counter: TokenCount | undefined;
  readonly clientCalls: Set<string>;
  readonly answered: Set<string>;
  readonly approvals: OpenApproval[];
}

/**
 * A budget stops the run before a call, never in the middle of one. The call that did not start is a node
 * that failed with the budget's error: the trace (and every surface drawing it) says why the run stopped.
 */
function judgeBudget(input: CallInput): void {
  if (!input.budget) return;
  const { host, history } = input;
  try {
    input.budget();
  } catch (error) {
    const nodeId = host.open(callNode.start(input.modelInfo, input.system, history));
    host.end(nodeId, callNode.end({ kind: "failed", error }), "failed");
    throw error;
  }
}

/** The call's state, its controller linked to the step's signal (which also cancels the reader) and to steer input. */
function startCall(input: CallInput): Call {
  const { signal, inbox } = input;
  const interrupt = new AbortController();
  const call: Call = {
    input,
    interrupt,
    onAbort: () => abortCall(call, signal.reason, true),
    reader: undefined,
    stopped: false,
    prepared: undefined,
    carried: 0,
    interruptible: false,
    release: undefined,
    stepResponse: undefined,
    sent: false,
    nodeId: undefined,
    attemptStartedAt: undefined,
    failed: undefined,
    text: "",
    reasoning: "",
    toolCalls: [],
    finish: undefined,
    usage: undefined,
    unreported: false,
    counter: undefined,
    clientCalls: new Set(),
    answered: new Set(),
    approvals: [],
  };
  if (signal.aborted) {
    call.stopped = true;
    interrupt.abort(signal.reason);
  } else signal.addEventListener("abort", call.onAbort, { once: true });
  inbox.onInput = () => {
    // Internal: the reason of this call's own controller (the call ends "interrupted"). An `AbortError`, so the
    // AI SDK ends the call's stream with its `abort` part (and its spans) rather than an error.
    if (call.interruptible && !signal.aborted && !interrupt.signal.aborted) abortCall(call, new DOMException("june: steer input interrupts this call", "AbortError"), false);
  };
  return call;
}

function abortCall(call: Call, reason: unknown, cancelReader: boolean): void {
  call.stopped = true;
  call.interrupt.abort(reason);
  // Canceling the reader ends a pending read at once (a cancel). An interrupted call's stream is read to its
  // end instead: the AI SDK then closes it with an `abort` part, which ends its own spans.
  if (cancelReader) call.reader?.cancel(reason).catch(() => {});
}

/** The call's node, made when its first request starts (so a request that fails, and each retry, shows). */
function openNode(call: Call): string {
  const { input } = call;
  return (call.nodeId ??= input.host.open(callNode.start(input.modelInfo, input.system, call.prepared ?? input.history)));
}

/** The AI SDK's stream of the one call, its requests shown on the node, its messages prepared right before it. */
function streamCall(call: Call): ModelStream {
  const { input } = call;
  const { history, inbox, host } = input;
  const callSignal = call.interrupt.signal;
  return streamModel({
    model: input.model,
    instructions: input.system,
    messages: history,
    settings: input.settings,
    tools: input.tools,
    output: input.output,
    abortSignal: callSignal,
    // One LLM call: June runs its own tool and steer loop between calls, so it controls the messages in between.
    oneCall: true,
    // Each request the AI SDK makes (a retry is another) shows on the node as it starts and fails.
    attempts: {
      onAttempt: (attempt, at) => {
        call.attemptStartedAt = at;
        const id = openNode(call);
        if (attempt > 1) host.update(id, { attempt });
      },
      onAttemptError: (attempt, error, at) => {
        if (callSignal.aborted) return;
        const id = openNode(call);
        const patch = callNode.attemptFailed(call.failed, attempt, call.attemptStartedAt ?? at, error, at);
        call.failed = patch.failedAttempts;
        host.update(id, patch);
      },
    },
    prepareStep: async ({ messages }) => {
      if (host.acquire) call.release = await host.acquire(callSignal);
      // Judged again once the slot is taken: calls that waited for one do not all start on the spend before them.
      input.budget?.();
      call.sent = true;
      // The AI SDK reads approval responses from the last message only: never put input after them.
      const steer = endsWithApprovalResponse(messages) ? [] : inbox.drain();
      call.carried = messages.length - history.length;
      // `messages` is the AI SDK's own array for this step: kept as it is when no steer input is added to it.
      call.prepared = steer.length === 0 ? messages : [...messages, ...steer.map((text): ModelMessage => ({ role: "user", content: text }))];
      call.interruptible = true;
      return { messages: call.prepared };
    },
    // The AI SDK builds the step's messages once, here; `await result.response` would tee and re-read the stream.
    onStepEnd: (step) => {
      call.stepResponse = responseMessages(step.response.messages, call.carried);
    },
  });
}

function countUsage(call: Call, reported: LanguageModelUsage | undefined): ReturnType<typeof countedUsage> {
  const { input } = call;
  return countedUsage(reported, () => ({
    traffic: { system: input.system, messages: call.prepared ?? input.history, received: call.text + call.toolCalls.map((c) => `${c.toolName}${JSON.stringify(c.input) ?? ""}`).join("") },
    count: (call.counter ??= tokenCounter(input.model)),
  }));
}

/**
 * A call that ended before its provider reported usage (canceled, interrupted, failed mid-stream) still
 * spent what was sent and what came back: June's own count of it, at an unknown cost. A request that
 * failed before any of its response arrived is not counted.
 */
function spendUnreported(call: Call, failed: boolean): void {
  if (call.usage !== undefined || !call.sent || (failed && call.text === "" && call.toolCalls.length === 0)) return;
  call.usage = Object.freeze(countUsage(call, undefined).usage);
  call.unreported = true;
  call.input.host.usage?.(call.usage);
  call.input.host.cost?.(UNKNOWN_COST);
}

/** One part of the call's stream, into the call's state and its host. */
function onPart(call: Call, span: CallSpan | undefined, part: TextStreamPart<ToolSet>): void {
  const { host } = call.input;
  const tools = host.tools;
  span?.onPart(part);
  switch (part.type) {
    case "start-step":
      openNode(call);
      return;
    case "text-delta":
      call.text += part.text;
      host.text(call.text, part.text, call.nodeId);
      return;
    case "reasoning-start":
    case "reasoning-delta":
    case "reasoning-end":
    case "source": {
      const aside = modelAside(part);
      if (!aside) return;
      if (aside.type === "reasoning-start" && call.reasoning !== "") call.reasoning += "\n\n";
      else if (aside.type === "reasoning-delta") call.reasoning += aside.text;
      // The node keeps an excerpt of what the call thought, once a part of it is complete.
      else if (aside.type === "reasoning-end" && call.nodeId !== undefined) host.update(call.nodeId, { reasoning: excerptText(call.reasoning, REASONING_EXCERPT_CHARS) });
      host.aside?.(aside, call.nodeId);
      return;
    }
    case "tool-input-start":
      call.interruptible = false;
      return;
    case "tool-call":
      call.interruptible = false;
      tools?.called(part);
      call.toolCalls.push(part);
      if (!part.providerExecuted) call.clientCalls.add(part.toolCallId);
      return;
    case "tool-approval-request":
      if (tools) call.approvals.push(tools.approval(part.approvalId, part.toolCall));
      return;
    case "tool-result":
      call.answered.add(part.toolCallId);
      tools?.answered(part);
      return;
    case "tool-error":
    case "tool-output-denied":
      call.answered.add(part.toolCallId);
      tools?.answered(part);
      return;
    case "finish-step": {
      call.interruptible = false;
      // Frozen as the trace keeps them (a snapshot copies an unfrozen one to freeze it).
      const counted = countUsage(call, part.usage);
      call.usage = Object.freeze(counted.usage);
      call.unreported = counted.counted;
      host.usage?.(call.usage);
      call.finish = { response: part.response, usage: part.usage, finishReason: part.finishReason };
      call.release?.();
      return;
    }
    case "error":
      throw part.error;
    default:
      return;
  }
}

/**
 * Reads the call's stream to its end (or its abort); a stream that failed ends the call's node and throws.
 * Returns what a call read to its end cost, when it reported usage.
 */
async function readCall(call: Call, span: CallSpan | undefined, parts: ReadableStream<TextStreamPart<ToolSet>>, price: Promise<Price | undefined>): Promise<Cost | undefined> {
  const { signal, inbox, host } = call.input;
  const callSignal = call.interrupt.signal;
  const reader = (call.reader = parts.getReader());
  let drained = false;
  let cost: Cost | undefined;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      // An interrupted call's late parts are not part of its text.
      if (!call.stopped) onPart(call, span, next.value);
    }
    flatten(call.text);
    drained = !callSignal.aborted;
    if (drained && call.usage !== undefined) {
      cost = call.unreported ? UNKNOWN_COST : costOf(call.finish?.usage, await price);
      span?.cost?.(cost);
    }
  } catch (error) {
    if (!callSignal.aborted) {
      span?.fail(error);
      spendUnreported(call, true);
      host.end(call.nodeId, callNode.end({ kind: "failed", error }), "failed");
      throw error;
    }
  } finally {
    call.interruptible = false;
    inbox.onInput = undefined;
    call.release?.();
    signal.removeEventListener("abort", call.onAbort);
    // The call's controller also aborts when the step's signal does: canceled first, interrupted otherwise.
    span?.end(signal.aborted ? "canceled" : callSignal.aborted ? "interrupted" : undefined);
    if (!drained && !callSignal.aborted) reader.cancel().catch(() => {});
  }
  return cost;
}

/** How the read call ended: canceled (throws), interrupted, or finished; its node ends so. */
async function endCall(call: Call, result: ModelStream["result"], read: Cost | undefined, price: Promise<Price | undefined>): Promise<CallOutcome> {
  const { signal, history, host } = call.input;
  const { text, prepared, usage, finish, approvals, clientCalls, answered } = call;
  if (signal.aborted) {
    spendUnreported(call, false);
    host.end(call.nodeId, callNode.end({ kind: "canceled", text: host.kept?.(text) ?? text }), "canceled");
    signal.throwIfAborted();
  }
  if (call.interrupt.signal.aborted) {
    const kept = host.kept?.(text) ?? text;
    spendUnreported(call, false);
    host.end(call.nodeId, callNode.end({ kind: "interrupted", text: kept }), "interrupted");
    const written: ModelMessage[] = kept ? [{ role: "assistant", content: kept }] : [];
    return { kind: "interrupted", messages: [...(prepared ?? history), ...written], text: kept };
  }
  // A stream that ended without a step (no finish-step): the AI SDK's own promise says why.
  const response = call.stepResponse ?? responseMessages((await result.response).messages, call.carried);
  let cost = read;
  if (usage === undefined && call.sent) {
    // A stream that ended without a step: June's count of it, at an unknown cost.
    spendUnreported(call, false);
    cost = UNKNOWN_COST;
  } else {
    cost ??= call.unreported ? UNKNOWN_COST : costOf(finish?.usage, await price);
    host.cost?.(cost);
  }
  host.end(call.nodeId, callNode.end({ kind: "done", response, usage: call.usage ?? toUsage(undefined), cost, finishReason: finish?.finishReason ?? "other" }), "done");
  const messages = prepared ? [...prepared, ...response] : [...history, ...response];
  const continues = approvals.length === 0 && clientCalls.size > 0 && [...clientCalls].every((id) => answered.has(id));
  return { kind: "finished", messages, response, text, continues, approvals, finish, cost };
}

/**
 * The one place a model call's response messages come from (the assistant's text and tool calls, the results
 * of tools the AI SDK ran): the step's `response.messages` without the `carried` messages in front of them
 * (tool results the AI SDK produced from approval responses before the call, already part of the prompt).
 */
export function responseMessages(stepMessages: readonly ModelMessage[], carried: number): readonly ModelMessage[] {
  return ownMessages(stepMessages, carried);
}

function endsWithApprovalResponse(messages: readonly ModelMessage[]): boolean {
  const last = messages.at(-1);
  return last?.role === "tool" && last.content.some((part) => part.type === "tool-approval-response");
}

/**
 * Makes a text built delta by delta one flat string, in place. `+=` leaves a rope of one string object per delta;
 * V8 walks all of them each time the text is compared or copied until something flattens it (the first read of a
 * character by index does, keeping the same string object). A call's text is read many times once it ends: the
 * reply, the journal's entry, the next prompts' messages. Comparing two 60-delta ropes out of cache takes ~5 µs,
 * two flat ones ~0.1 µs.
 */
function flatten(text: string): void {
  if (text.length > 0) text.charCodeAt(0);
}
