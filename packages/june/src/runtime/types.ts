import type { ModelAside } from "../ai-sdk/model-asides.js";
import type { Guardrails } from "../guardrails/types.js";
import type { ToolApprovalPolicy } from "./tool-approval.js";
import type { LanguageModel, ModelMessage, ToolResultPart } from "ai";
import type { CallSettings, ModelInfo, Usage } from "../ai-sdk/call-types.js";
import type { TelemetryOption } from "../telemetry/options.js";
import type { ToolSourceProvider } from "./tool-source-mark.js";
import type { Cost, Prices } from "../cost/price.js";
import type { Budget, Spent } from "../cost/budget.js";

/** The state of a trace node. */
export type NodeStatus = "pending" | "running" | "done" | "error" | "canceled";

/** An error as the trace and the journal keep it. */
export interface TraceError {
  name: string;
  message: string;
}

interface BaseNode {
  /** Stable from one snapshot to the next. */
  readonly id: string;
  readonly name: string;
  readonly status: NodeStatus;
  /** Epoch milliseconds. */
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly children: readonly TraceNode[];
  readonly error?: TraceError;
}

export interface RunNode extends BaseNode {
  readonly kind: "run";
}
export interface AgentNode extends BaseNode {
  readonly kind: "agent";
  readonly model?: ModelInfo;
}
export interface ParallelNode extends BaseNode {
  readonly kind: "parallel";
}
export interface CatchNode extends BaseNode {
  readonly kind: "catch";
}
export interface StepNode extends BaseNode {
  readonly kind: "step";
  /** Everything the step's model calls wrote so far. */
  readonly partialText: string;
  readonly result?: unknown;
  readonly model?: ModelInfo;
  readonly usage?: Usage;
  /** What the step's model calls cost (`usd` undefined when a model's price is not known). */
  readonly cost?: Cost;
  /** Mirrors the `<Step stream>` prop: this step's text is meant to be streamed (chat streams it). */
  readonly stream?: boolean;
  /**
   * True for a step with an `output` (`Output.object({ schema })`, a schema): its text is the model's JSON, its
   * result the parsed value, and `partialOutput` the value as parsed so far. A chat streams it as data, not text.
   */
  readonly structured?: boolean;
  /** A step with an `output`: the value parsed from its text so far (the AI SDK's partial output), as it streams. */
  readonly partialOutput?: unknown;
}
export interface ModelCallNode extends BaseNode {
  readonly kind: "model-call";
  readonly model: ModelInfo;
  readonly partialText: string;
  /** What the call reasoned (thinking, a reasoning summary), as a bounded, redacted excerpt of its head, once a part of it ended. */
  readonly reasoning?: string;
  readonly usage?: Usage;
  /** What the call cost: its usage at the model's price (`usd` undefined when that price is not known). */
  readonly cost?: Cost;
  readonly finishReason?: string;
  /**
   * What the call was sent, as bounded, redacted excerpts (the system prompt, then the last few messages):
   * enough to see why a model answered as it did, never a whole long history.
   */
  readonly prompt?: readonly TraceMessage[];
  /** How many earlier messages of the prompt the excerpt leaves out. */
  readonly promptOmitted?: number;
  /** What the call answered (its text, its tool calls), as bounded, redacted excerpts, once it finished. */
  readonly response?: readonly TraceMessage[];
  /** The attempt under way, from 1: above 1 while the AI SDK retries a failed request (`maxRetries`). */
  readonly attempt?: number;
  /** The requests of this call that failed, oldest first: each one the AI SDK retried, then the last, if it failed too. */
  readonly failedAttempts?: readonly ModelAttemptFailure[];
}

/** One message of a model call's prompt or response as the trace keeps it: its role and a bounded, redacted excerpt. */
export interface TraceMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly text: string;
}

/** A request of a model call that failed (the AI SDK retries it when it is retryable and tries remain). */
export interface ModelAttemptFailure {
  /** Which attempt failed, from 1. */
  readonly attempt: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly error: TraceError;
}
export type ApprovalState = "pending" | "approved" | "denied";
export interface ToolCallNode extends BaseNode {
  readonly kind: "tool-call";
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  readonly output?: unknown;
  /** `decidedBy: "policy"`: the step's `toolApproval` decided, no one was asked (absent: a person decided, or it is pending). */
  /**
   * `decidedBy: "policy"`: the step's `toolApproval` decided, no one was asked (absent: a person decided, or it
   * is pending). `edited`: the person approved it with a changed input (the node's `input` is the one that ran).
   */
  readonly approval?: { readonly id: string; readonly state: ApprovalState; readonly reason?: string; readonly decidedBy?: "policy"; readonly edited?: true };
  /** For a tool of an MCP server (`<McpTools>`): the server's name and the tool's name there. */
  readonly mcp?: { readonly server: string; readonly tool: string };
}

/** A node of the trace tree, discriminated on `kind`. */
export type TraceNode = RunNode | AgentNode | ParallelNode | CatchNode | StepNode | ModelCallNode | ToolCallNode;
export type TraceNodeKind = TraceNode["kind"];

/** A tool call waiting for a decision. */
export interface ApprovalRequest {
  readonly id: string;
  readonly stepId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  /** For a tool of an MCP server (`<McpTools>`): the server's name and the tool's name there. */
  readonly mcp?: { readonly server: string; readonly tool: string };
  /**
   * Set on a request restored from a checkpoint whose call was approved and had begun to execute when its
   * process stopped: it was not run again, and runs only on a new approval.
   */
  readonly retry?: boolean;
  /** Set on an `ask_user` call (`<AskUser />`): the question a person answers (`answer`), in place of approving. */
  readonly question?: string;
}

/**
 * A person's answer to a request: run the tool (with `input` in place of the model's, when given), or never run
 * it and tell the model `reason`.
 */
export type ApprovalDecision = { readonly approved: true; readonly input?: unknown } | { readonly approved: false; readonly reason?: string };

/**
 * What a decision did: `decided`; `not-pending` (the run, or the turn, does not wait on that request: unknown,
 * withdrawn or decided already); `ended` (the turn is over: nothing reaches it any more).
 */
export type DecisionOutcome = { readonly kind: "decided" } | { readonly kind: "not-pending" } | { readonly kind: "ended" };

/** A tool call the step's `toolApproval` decided: no one was asked. */
export interface PolicyApproval {
  readonly id: string;
  readonly stepId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/** An approval request as a checkpoint keeps it. JSON-safe. */
export interface CheckpointRequest {
  id: string;
  toolName: string;
  toolCallId: string;
  input: unknown;
  /**
   * The decision, once taken. `edited`: approved with a changed input (then `input` is the edited one);
   * `decidedBy: "policy"`: taken by a policy, not a person.
   */
  decision?: { approved: boolean; reason?: string; edited?: true; decidedBy?: "policy" };
  /**
   * The approved call's `execute` may have begun: on resume it asks again (`retry: true`), never runs unasked,
   * unless its `output` is stored.
   */
  started?: boolean;
  /**
   * The approved call's outcome as the model is given it (its result, or its error's message), stored as soon as
   * its `execute` returned or threw, before the next model call: on resume the call is neither asked for nor
   * run again, and the model gets this.
   */
  output?: ToolResultPart["output"];
  retry?: boolean;
}

/** A model step in the middle of its tool loop: its messages so far and the requests it waits on. */
export interface StepCheckpoint {
  /** The step's model messages (its prompt, the calls so far, the assistant's tool calls included). */
  messages: ModelMessage[];
  /** The requests of its last call; empty once they were answered and the loop went on. */
  requests: CheckpointRequest[];
  /** Model calls the step made so far (for `maxSteps`). */
  calls: number;
  /**
   * A `run` step's questions (`ctx.ask`), in the order its code asked them: on resume the step runs again from
   * its start, an answered ask returns its stored `answer` without asking, a pending one opens again (same `id`).
   */
  asks?: CheckpointAsk[];
}

/** A `run` step's question (`ctx.ask`) as a checkpoint keeps it. `answered` once a person answered it. */
export interface CheckpointAsk {
  id: string;
  question: string;
  answered?: true;
  answer?: unknown;
}

/**
 * What a run saves as it moves (`start(element, { onCheckpoint })`) and starts from again
 * (`start(element, { checkpoint })`). JSON-safe: it goes through `JSON.stringify` unchanged.
 */
export interface RunCheckpoint {
  version: 1;
  /** Ids of the steps that finished, in the order they did. */
  completed: string[];
  /** Their results, by step id (a result of `undefined` has no key). */
  steps: Record<string, unknown>;
  /** Steps that failed (inside a `Catch`): on resume they fail again at once with this error. */
  failed: Record<string, TraceError>;
  /** Model steps waiting on approvals or between calls, by step id. */
  waiting: Record<string, StepCheckpoint>;
  /** Usage of every model call so far. */
  usage: Usage;
  /** What every model call so far cost (kept across a resume). */
  cost?: Cost;
}

/** What a step's prompt function, a `run` step and a render function receive. */
export interface RunContext {
  /** The run's id. */
  readonly runId: string;
  /** Results of the steps finished so far, by id. */
  readonly steps: Readonly<Record<string, unknown>>;
  /** Aborts when the step (or the run) is canceled, fails or times out. */
  readonly signal: AbortSignal;
  /**
   * In a `run` step: asks a person `question` and resolves to the answer (`turn.answer(id, value)`), like
   * `<AskUser />` for the model: an `input-request` that waits like an approval. A cancel withdraws it (the
   * promise rejects with the cancel); a denial rejects with `QuestionDeclinedError`. In a durable turn each
   * answer is kept in the checkpoint: on resume the step runs again from its start and an answered ask returns
   * its answer without asking again. Elsewhere (a prompt or render function) it rejects with a `TypeError`.
   */
  ask(question: string): Promise<unknown>;
}

export type Prompt = string | ModelMessage[] | ((ctx: RunContext) => string | ModelMessage[] | Promise<string | ModelMessage[]>);

export type RunStatus = "done" | "error" | "canceled";

export interface RunResult {
  readonly id: string;
  readonly status: RunStatus;
  readonly steps: Record<string, unknown>;
  readonly trace: TraceNode;
  readonly usage: Usage;
  /** What the run's model calls cost (`usd` undefined when a model's price is not known). `start()` always sets it. */
  readonly cost?: Cost;
}

export interface StartOptions {
  /** Most model calls in flight in this run (default: no limit). */
  concurrency?: number;
  /** Milliseconds for the whole run; past it the run is aborted and fails with a `TimeoutError`. */
  timeout?: number;
  /** Aborting it cancels the run. */
  signal?: AbortSignal;
  /** Called at each commit with an immutable snapshot of the trace tree. Never inside `start()`. */
  onUpdate?: (tree: TraceNode) => void;
  /**
   * Called as a model step's call streams its reasoning or cites a source, in the order the model sent them
   * (a chat's streamed step shows them beside its text). At once, between commits: `text` is the step's text
   * so far, what the model wrote before it.
   */
  onAside?: (aside: StepAside) => void;
  /**
   * Starts the run from a checkpoint `onCheckpoint` received: finished steps are not run again (their
   * results come from it), a step that waited on approval continues from its saved messages with its
   * requests open again (same ids). A waiting step that no longer exists is a `CheckpointMismatchError`.
   */
  checkpoint?: RunCheckpoint;
  /**
   * Called with each new checkpoint: after each step completes, when a step asks for approval, when its
   * approvals are decided (before an approved tool executes) and after each further call of such a step.
   * A returned promise is awaited before the run goes on; a rejection fails the run. With it, a step result
   * that is not JSON-safe fails its step at once.
   */
  onCheckpoint?: (checkpoint: RunCheckpoint) => void | Promise<void>;
  /**
   * OpenTelemetry spans of the run (`june.run` > `june.step` > model and tool calls). Left out or `true`:
   * to the registered tracer provider, if any (none: nothing is recorded); `false`: none; or
   * `{ tracer, recordInputs, recordOutputs, maxContentChars, context }`. See docs/telemetry.md.
   */
  telemetry?: TelemetryOption;
  /**
   * MCP connections shared beyond this run (`mcpConnections()`): its `<McpTools>` connect through them and
   * leave them open. Default: the connections in effect (`mcp.run(fn)`), else the run's own, closed when it ends.
   * (The runtime reads it as any value that serves a tool source for whole runs: see `ToolSourceProvider`.)
   */
  mcp?: ToolSourceProvider;
  /**
   * Your prices by model id, USD per million tokens (`{ "gpt-4o-mini": { input, output, cacheRead?, cacheWrite? } }`);
   * they win over the catalog's. See docs/cost.md.
   */
  prices?: Prices;
  /**
   * Budgets (`{ turn?, session? }`, each `{ usd?, tokens? }`): when what was spent has reached one as the next
   * model call would start, the run stops there with a `BudgetExceededError` (a call in flight always finishes).
   * `turn` limits this run (across a resume from its checkpoint too); `session`, this run plus `spent`. See docs/cost.md.
   */
  budget?: Budget;
  /** What was spent before this run (a chat passes its session's), counted against `budget.session`. */
  spent?: Spent;
  /** The `toolApproval` of every model step that has none of its own, nor an `Agent`'s (a chat's `toolApproval`). */
  toolApproval?: ToolApprovalPolicy;
  /** Guardrails for every model step, before its `Agent`'s and its own (a chat's `guardrails.tool`). */
  guardrails?: Guardrails;
}

export interface RunHandle {
  readonly id: string;
  /** Resolves with the `RunResult`; rejects with a `RunError` holding the partial result. */
  readonly result: Promise<RunResult>;
  /** The pending approval requests. */
  readonly requests: readonly ApprovalRequest[];
  /** The tool calls decided by policy (`toolApproval`) so far, oldest first: never in `requests`. */
  readonly policyDecisions?: readonly PolicyApproval[];
  /**
   * Decides a pending request: an approval executes the tool; a denial never executes it and the model is told
   * `reason`. Says what happened: `decided`, or `not-pending` (unknown, withdrawn or already decided). An
   * approval with `input` (an edit) resolves once the input passed what the model's own input passes: its
   * schema (`ToolInputInvalidError`), the tool guardrails and the step's `toolApproval`
   * (`ApprovalEditRefusedError`); a refused edit leaves the request pending.
   */
  decide(id: string, decision: ApprovalDecision): DecisionOutcome | Promise<DecisionOutcome>;
  /** Answers a pending question (an `ask_user` call, `request.question` set): the tool's result is `value`. */
  answer?(id: string, value: unknown): DecisionOutcome;
  cancel(reason?: string): void;
  /** Hands more user input to the running steps (or the next step to start). */
  steer(input: string): void;
  /**
   * Resolves once every waiting step of the run's `checkpoint` has its requests open again in `requests`
   * (at once without a checkpoint), or the run ended.
   */
  readonly restored?: Promise<void>;
}

export type { LanguageModel, ModelMessage };
/** The words of one model call, from the AI SDK adapter's floor (`ai-sdk/call-types.ts`). */
export type { CallSettings, ModelInfo, Usage };

/** What a model step's call sent beside its text (`start({ onAside })`): its reasoning, a source. */
export interface StepAside {
  /** The step's id (`<Step id>`). */
  readonly stepId: string;
  /** The step's text so far: everything its calls wrote before this. */
  readonly text: string;
  readonly aside: ModelAside;
}
