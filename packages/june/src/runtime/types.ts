import type { LanguageModel, ModelMessage, TelemetrySettings as AiTelemetrySettings } from "ai";
import type { TelemetryOption } from "../telemetry/options.js";
import type { McpConnections } from "../mcp/connections.js";

/** The state of a trace node. */
export type NodeStatus = "pending" | "running" | "done" | "error" | "canceled";

/** Which model answered: the AI SDK model's `provider` and `modelId`. */
export interface ModelInfo {
  provider: string;
  modelId: string;
}

/** Token usage. A run's usage sums every model call's. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

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
  /** Mirrors the `<Step stream>` prop: this step's text is meant to be streamed (chat streams it). */
  readonly stream?: boolean;
}
export interface ModelCallNode extends BaseNode {
  readonly kind: "model-call";
  readonly model: ModelInfo;
  readonly partialText: string;
  readonly usage?: Usage;
  readonly finishReason?: string;
}
export type ApprovalState = "pending" | "approved" | "denied";
export interface ToolCallNode extends BaseNode {
  readonly kind: "tool-call";
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  readonly output?: unknown;
  readonly approval?: { readonly id: string; readonly state: ApprovalState; readonly reason?: string };
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
}

/** What a step's prompt function, a `run` step and a render function receive. */
export interface RunContext {
  /** The run's id. */
  readonly runId: string;
  /** Results of the steps finished so far, by id. */
  readonly steps: Readonly<Record<string, unknown>>;
  /** Aborts when the step (or the run) is canceled, fails or times out. */
  readonly signal: AbortSignal;
}

export type Prompt = string | ModelMessage[] | ((ctx: RunContext) => string | ModelMessage[] | Promise<string | ModelMessage[]>);

export type RunStatus = "done" | "error" | "canceled";

export interface RunResult {
  readonly id: string;
  readonly status: RunStatus;
  readonly steps: Record<string, unknown>;
  readonly trace: TraceNode;
  readonly usage: Usage;
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
   * OpenTelemetry spans of the run (`june.run` > `june.step` > model and tool calls). Left out or `true`:
   * to the registered tracer provider, if any (none: nothing is recorded); `false`: none; or
   * `{ tracer, recordInputs, recordOutputs, maxContentChars, context }`. See docs/telemetry.md.
   */
  telemetry?: TelemetryOption;
  /**
   * MCP connections shared beyond this run (`mcpConnections()`): its `<McpTools>` connect through them and
   * leave them open. Default: the connections in effect (`mcp.run(fn)`), else the run's own, closed when it ends.
   */
  mcp?: McpConnections;
}

export interface RunHandle {
  readonly id: string;
  /** Resolves with the `RunResult`; rejects with a `RunError` holding the partial result. */
  readonly result: Promise<RunResult>;
  /** The pending approval requests. */
  readonly requests: readonly ApprovalRequest[];
  /** Executes the tool. `false` for an unknown, withdrawn or already-decided id. */
  approve(id: string): boolean;
  /** The tool never executes; the model is told `reason`. `false` for an unknown or decided id. */
  deny(id: string, reason?: string): boolean;
  cancel(reason?: string): void;
  /** Hands more user input to the running steps (or the next step to start). */
  steer(input: string): void;
}

/** Settings an `Agent` passes to every `streamText` call below it. */
export interface CallSettings {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  maxRetries?: number;
  headers?: Record<string, string | undefined>;
  providerOptions?: Record<string, Record<string, any>>;
  /**
   * The AI SDK's telemetry, passed to `streamText`: `{ isEnabled: true }` makes it emit its `ai.streamText`
   * spans, nested under June's model-call spans. Its tracer is wrapped in June's redaction, and unset
   * `recordInputs` / `recordOutputs` follow June's `telemetry` (default `false`). See docs/telemetry.md.
   */
  experimental_telemetry?: AiTelemetrySettings;
}

export type { LanguageModel, ModelMessage };
