import type { Guardrails } from "../guardrails/types.js";
import type { ToolApprovalPolicy } from "./tool-approval.js";
import { CanceledError } from "./errors.js";
import type { RunSources } from "./run-sources.js";
import type { ApprovalRegistry } from "./approvals.js";
import type { Checkpointer } from "./checkpoint.js";
import type { Semaphore } from "./scheduler.js";
import type { SteerHub } from "./steer.js";
import type { TraceStore } from "./trace-store.js";
import type { RunSpans } from "./run-spans.js";
import type { Cost, Prices } from "../cost/price.js";
import type { NodeStatus, RunContext, StepAside, TraceError, Usage } from "./types.js";
import type { WorkflowNode } from "./components.js";

/** Everything one run shares across its nodes. Passed explicitly; never global. */
export interface RunState {
  readonly id: string;
  readonly trace: TraceStore;
  readonly approvals: ApprovalRegistry;
  readonly steer: SteerHub;
  /** Model calls in flight (the run's `concurrency`). */
  readonly modelSlots: Semaphore;
  /** Results of finished steps, by id. */
  readonly steps: Record<string, unknown>;
  /** Every step id rendered so far (static and from render functions). */
  readonly stepIds: Set<string>;
  /** The run's tool-source sessions (its `<McpTools>`' connections), and the sources served to every step. */
  readonly sources: RunSources;
  usage: Usage;
  /** What the run's model calls cost so far (from its checkpoint's, on a resume). */
  cost: Cost;
  /** Your prices (`start({ prices })`), which win over the catalog's. */
  readonly prices?: Prices | undefined;
  /** Throws `BudgetExceededError` when the run's budget is spent (`start({ budget })`); checked before each model call. */
  readonly budget?: (() => void) | undefined;
  /** Set when the run saves checkpoints or starts from one. */
  readonly checkpoints?: Checkpointer;
  /** The run's OpenTelemetry spans; undefined when telemetry is off or nothing records. */
  readonly spans?: RunSpans;
  /** `start()`'s `onAside`: told of each model step's reasoning and sources as they stream. */
  readonly onAside?: ((aside: StepAside) => void) | undefined;
  /**
   * Set on a sub-workflow's view of its run (a `<Tool agent>` call): its place, `"<step>/<tool>"`, put in front of
   * its step ids wherever the run keys steps (approvals, checkpoint). See `stepKey`.
   */
  readonly path?: string;
  /**
   * Renders and executes a workflow element inside this run (a `<Tool agent>`'s sub-workflow). Set by `start()`,
   * which owns rendering and execution, so the model step that calls an agent tool imports neither (no circle).
   */
  readonly runWorkflow: (element: WorkflowNode, env: Env) => Promise<void>;
  /** `start()`'s `toolApproval` and `guardrails`: what every model step starts from. */
  readonly defaults?: { readonly toolApproval?: ToolApprovalPolicy; readonly guardrails?: Guardrails };
}

/** A step's key in the run (its approvals' `stepId`, its checkpoint entry): its id, after its sub-workflow's path. */
export function stepKey(run: RunState, stepId: string): string {
  return run.path === undefined ? stepId : `${run.path}/${stepId}`;
}

/** Where a node executes: its run, its parent trace node and the signal that aborts it. */
export interface Env {
  readonly run: RunState;
  readonly parentId: string;
  readonly signal: AbortSignal;
}

/** The context handed to prompt functions, `run` steps and render functions. */
export function makeContext(run: RunState, signal: AbortSignal, ask: RunContext["ask"] = noAsk): RunContext {
  return Object.freeze({ runId: run.id, steps: Object.freeze({ ...run.steps }), signal, ask });
}

/** `ctx.ask` outside a `run` step. */
function noAsk(): Promise<never> {
  return Promise.reject(new TypeError("ctx.ask(question) is only available in a `run` step (<Step run={async (ctx) => ...} />)"));
}

/** An error as the trace keeps it: name and message only. */
export function toTraceError(error: unknown): TraceError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  if (typeof error === "object" && error !== null && "message" in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === "string" ? name : "Error", message: String(message) };
  }
  return { name: "Error", message: String(error) };
}

/** A cancellation (not a failure): `cancel()`, the run's signal, or a failed sibling aborting this branch. */
export function isCanceled(error: unknown): boolean {
  return CanceledError.isInstance(error);
}

/** The fields that end a node that failed with `error`. */
export function endFields(error: unknown, at = Date.now()): { status: NodeStatus; endedAt: number; error?: TraceError } {
  return isCanceled(error) ? { status: "canceled", endedAt: at } : { status: "error", endedAt: at, error: toTraceError(error) };
}
