import type { Guardrails } from "../guardrails/types.js";
import type { FlexibleSchema, LanguageModel, OutputInterface, Tool as AITool } from "ai";
import type { JuneElement } from "../jsx/element.js";
import type { ToolApprovalPolicy } from "./tool-approval.js";
import type { CallSettings, Prompt, RunContext, Usage } from "./types.js";

/**
 * What a workflow component may hold as children or return: elements, arrays of them, `null`/booleans
 * (ignored), or a render function `(ctx) => node`, rendered when the sequence reaches it.
 */
export type WorkflowNode =
  | JuneElement<any>
  | ((ctx: RunContext) => WorkflowNode | Promise<WorkflowNode>)
  | readonly WorkflowNode[]
  | null
  | undefined
  | boolean;

/** A `<Step output>`: an AI SDK `Output` spec (`Output.object(...)`) or a schema (zod, `jsonSchema()`, Standard Schema). */
export type StepOutput = OutputInterface | FlexibleSchema<any>;

/** Props of `<Agent>`: the model, system prompt and call settings for every `Step` below it. */
export interface AgentProps extends CallSettings {
  /** An AI SDK `LanguageModel`, passed to `streamText` unchanged. */
  model: LanguageModel;
  /** The system prompt of every step below. */
  instructions?: string;
  /** The trace node's name (default `"Agent"`). */
  name?: string;
  /**
   * Which tool calls of the steps below need a decision, in AI SDK 7's shapes: by tool name a status
   * (`"not-applicable" | "approved" | "denied" | "user-approval"`), `{ type, reason }`, or a function of the
   * call's input returning one; or one function for every call. `approved` and `denied` are decided by
   * policy (no one is asked; the reason shows in the trace, the journal and the span, and a denial's reaches
   * the model); `user-approval` asks a person. A tool's own `needsApproval` applies where the policy says
   * nothing. A nested `Agent`'s, or a `Step`'s, replaces it. The same on AI SDK 6 and 7.
   */
  toolApproval?: ToolApprovalPolicy;
  /**
   * Checks for the model steps below: `tool` checks each tool call's input before its approval (a trip denies
   * it with the reason) and its output before the model sees it (a trip answers the model with the refusal);
   * `input` checks a step's prompt before its first model call and `output` its reply (a trip fails the step
   * with `GuardrailTrippedError`). A nested `Agent`'s and a `Step`'s add to these.
   */
  guardrails?: Guardrails;
  children?: WorkflowNode;
}

/** Props of `<Step>`: one model call loop, or a plain async function with `run`. */
export interface StepProps {
  /** Unique in the run; the key of the step's result in `ctx.steps` and `RunResult.steps`. */
  id: string;
  /** A string, `ModelMessage[]`, or a function of the context called when the step starts. */
  prompt?: Prompt;
  /** Marks the step whose text is meant to be streamed (chat's `stream: { step }`). */
  stream?: boolean;
  /** Parse the reply with this schema or `Output` spec; the step's result is the parsed value. */
  output?: StepOutput;
  /** Most model calls in the tool loop (default 20). */
  maxSteps?: number;
  /** Milliseconds for this step; past it the step fails with a `TimeoutError`. */
  timeout?: number;
  /** A plain function step, no model: its (awaited) return value is the step's result. */
  run?: (ctx: RunContext) => unknown;
  /** The AI SDK's telemetry for this step's calls, in place of its `Agent`'s (see `CallSettings`). */
  experimental_telemetry?: CallSettings["experimental_telemetry"];
  /** Which of this step's tool calls need a decision, in place of its `Agent`'s (see `AgentProps.toolApproval`). */
  toolApproval?: ToolApprovalPolicy;
  /** Checks for this step, added to its `Agent`'s (see `AgentProps.guardrails`). */
  guardrails?: Guardrails;
  /** `<Tool>`s that serve this step alone. */
  children?: WorkflowNode;
}

/** Props of `<Tool>`: an AI SDK tool (`value`), or a workflow offered as a tool (`agent`, see `AgentToolProps`). */
export type ToolProps = ValueToolProps | AgentToolProps;

/** Props of `<Tool value>`. */
export interface ValueToolProps {
  /** The name the model calls the tool by. */
  name: string;
  /** An AI SDK `tool()`. */
  value: AITool<any, any>;
}

/**
 * Props of `<Tool agent>`: a workflow offered to the model as a tool. When the model calls it, `agent(input)`
 * runs as part of the same run, under the tool call's trace node: its approvals are the run's (their `stepId`
 * is the sub-agent's path, `"<step>/<tool>/<sub-step>"`), its usage adds to the run's, cancel and steer reach
 * it, and in a durable run it suspends and resumes with the run. Its failure is the tool's error, which the
 * calling model sees. See docs/multi-agent.md.
 */
export interface AgentToolProps<Input = any> {
  /** The name the model calls the tool by. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** The input's schema (zod, `jsonSchema()`, Standard Schema): the model's call is checked against it. */
  inputSchema: FlexibleSchema<Input>;
  /** The workflow to run for one call, from the call's input. It brings its own `<Agent model>`. */
  agent: (input: Input) => WorkflowNode;
  /**
   * What the model gets back, from the finished sub-run (its steps' results by id, its usage). Default: the
   * result of the step that finished last. A durable run keeps it, so it must be JSON-safe there.
   */
  result?: (run: AgentToolRun) => unknown;
}

/** A finished sub-run of a `<Tool agent>`, as its `result` function gets it. */
export interface AgentToolRun {
  /** Its steps' results, by their ids in the sub-workflow. */
  readonly steps: Readonly<Record<string, unknown>>;
  /** The tokens its model calls used (already added to the run's). */
  readonly usage: Usage;
}

/** Props of `<Parallel>`. */
export interface ParallelProps {
  /** Most children running at once (default: all). */
  concurrency?: number;
  children?: WorkflowNode;
}

/** Props of `<Catch>`. */
export interface CatchProps {
  /** Runs instead when a child fails: an element, or a function of the error returning one. */
  fallback: JuneElement<any> | readonly WorkflowNode[] | null | ((error: unknown) => WorkflowNode);
  children?: WorkflowNode;
}

/**
 * Sets the model, instructions and call settings for every `Step` below it. A nested `Agent` overrides what
 * it sets and inherits the rest, tools included. Its children run in sequence.
 *
 * @example
 * <Agent model={openai("gpt-5-mini")} instructions="Be brief.">
 *   <Step id="answer" prompt="Why is the sky blue?" />
 * </Agent>
 */
export function Agent(_props: AgentProps): null {
  return null;
}

/**
 * One model call loop (`streamText` with the tools in scope, until the model stops or `maxSteps`), or a
 * plain function step with `run`. Its result lands in `ctx.steps[id]`.
 *
 * @example
 * <Step id="summary" prompt={(ctx) => `Summarize: ${ctx.steps.draft}`} />
 */
export function Step(_props: StepProps): null {
  return null;
}

/**
 * Makes an AI SDK tool callable by the steps of the enclosing `Agent`, or of the enclosing `Step` alone; with
 * `agent` in place of `value`, a whole workflow (see `AgentToolProps`).
 *
 * @example
 * <Tool name="weather" value={weatherTool} />
 * <Tool name="research" description="Researches a topic" inputSchema={topicSchema} agent={({ topic }) => <Researcher topic={topic} />} />
 */
export function Tool(_props: ToolProps): null {
  return null;
}

/**
 * Runs its children at the same time. When one fails (and no `Catch` inside handles it), the others are
 * aborted and the `Parallel` fails with that error.
 */
export function Parallel(_props: ParallelProps): null {
  return null;
}

/** When a child fails, records the error in the trace and runs `fallback` instead; the run goes on. */
export function Catch(_props: CatchProps): null {
  return null;
}
