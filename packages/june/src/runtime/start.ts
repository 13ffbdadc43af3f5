import { validateGuardrails } from "../guardrails/check.js";
import { ApprovalRegistry } from "./approvals.js";
import type { WorkflowNode } from "./components.js";
import { assertRunCheckpoint, Checkpointer } from "./checkpoint.js";
import { CanceledError, CheckpointMismatchError, RunError, TimeoutError } from "./errors.js";
import { executeAll } from "./execute.js";
import { renderWorkflow, rootScope, type PlanNode } from "./render.js";
import { isCanceled, toTraceError, type RunState } from "./run-state.js";
import { Semaphore } from "./scheduler.js";
import { SteerHub } from "./steer.js";
import { TraceStore } from "./trace-store.js";
import { RunSpans } from "./run-spans.js";
import { RunSources } from "./run-sources.js";
import { sourceOf } from "./tool-source.js";
import type { RunCheckpoint, RunHandle, RunResult, RunStatus, StartOptions } from "./types.js";
import { ZERO_USAGE } from "./usage.js";
import { checkPrices, ZERO_COST } from "../cost/price.js";
import { assertWithinBudget, checkBudget } from "../cost/budget.js";

/**
 * Renders a workflow, starts running it and returns its handle at once. The whole static tree is rendered and
 * validated first: a duplicate step id, a `Step` with no model in scope, a `Tool` without `name` or `value` or
 * an unknown element type throws a `RenderError` here, and nothing runs.
 *
 * @param element The workflow: a JSX element (or array, or render function).
 * @param options `concurrency` (model calls in flight), `timeout` (ms), `signal`, `onUpdate(tree)`, `telemetry`
 *   (OpenTelemetry spans; see docs/telemetry.md).
 * @returns The `RunHandle`: `result`, `requests`, `decide`, `cancel`, `steer`.
 * @throws RenderError when the workflow cannot be rendered.
 *
 * @example
 * const run = start(
 *   <Agent model={model}>
 *     <Step id="answer" prompt="Hello" />
 *   </Agent>,
 *   { onUpdate: (tree) => console.log(tree.status) },
 * );
 * const { steps } = await run.result;
 */
export function start(element: WorkflowNode, options: StartOptions = {}): RunHandle {
  checkOptions(options);
  const stepIds = new Set<string>();
  const plan = renderWorkflow(element, rootScope(), stepIds);
  const checkpoints = checkpointerFor(options, plan, stepIds);

  const id = `run_${crypto.randomUUID()}`;
  const spans = RunSpans.open(options.telemetry, id);
  const trace = new TraceStore(id, { kind: "run", name: "run", status: "running", startedAt: Date.now() }, options.onUpdate);
  const run: RunState = {
    id,
    trace,
    approvals: new ApprovalRegistry(),
    steer: new SteerHub(),
    modelSlots: new Semaphore(options.concurrency),
    steps: {},
    stepIds,
    // Made here, inside start(), so it sees the tool sources in effect (`mcpConnections().run(fn)`).
    sources: new RunSources(id, options.mcp),
    runWorkflow: (workflow, env) => executeAll(renderWorkflow(workflow, rootScope(), env.run.stepIds), env),
    usage: options.checkpoint ? { ...ZERO_USAGE, ...options.checkpoint.usage } : ZERO_USAGE,
    cost: options.checkpoint?.cost ?? ZERO_COST,
    prices: checkPrices(options.prices, "start()"),
    budget: budgetCheck(options, () => run),
    ...(checkpoints ? { checkpoints } : {}),
    ...(spans ? { spans } : {}),
    ...(options.onAside ? { onAside: options.onAside } : {}),
    ...(options.toolApproval !== undefined || options.guardrails !== undefined
      ? { defaults: { ...(options.toolApproval !== undefined ? { toolApproval: options.toolApproval } : {}), ...(options.guardrails !== undefined ? { guardrails: options.guardrails } : {}) } }
      : {}),
  };
  if (checkpoints) {
    checkpoints.usageSource = () => run.usage;
    checkpoints.costSource = () => run.cost;
  }
  const controller = new AbortController();
  let finished = false;

  const onSignal = () => controller.abort(new CanceledError("The run was canceled by its signal", { cause: options.signal?.reason }));
  if (options.signal?.aborted) onSignal();
  else options.signal?.addEventListener("abort", onSignal, { once: true });
  const timeout = options.timeout;
  const timer =
    timeout === undefined
      ? undefined
      : setTimeout(() => controller.abort(new TimeoutError(`The run timed out after ${timeout} ms`, { timeout })), timeout);

  const drive = async (): Promise<RunResult> => {
    // Nothing runs (and nothing is committed) inside start().
    await Promise.resolve();
    let failure: { error: unknown } | undefined;
    try {
      await executeAll(plan, { run, parentId: id, signal: controller.signal });
      controller.signal.throwIfAborted();
      const missing = checkpoints?.unrestored ?? [];
      if (missing.length > 0) throw new CheckpointMismatchError({ stepIds: missing });
    } catch (error) {
      failure = { error };
    }
    // The run's tool-source sessions close before it settles: a stdio MCP server's process does not outlive the run.
    await run.sources.close();
    finished = true;
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onSignal);
    run.approvals.withdrawAll();
    checkpoints?.settle();
    const endedAt = Date.now();
    if (!failure) {
      trace.update(id, { status: "done", endedAt });
      spans?.end("done", run.usage, undefined, run.cost);
      return result("done");
    }
    const cause = controller.signal.aborted ? controller.signal.reason : failure.error;
    const status: RunStatus = isCanceled(cause) ? "canceled" : "error";
    trace.closeOpen(id, status === "canceled" ? "canceled" : "error", toTraceError(cause), endedAt);
    spans?.end(status, run.usage, cause, run.cost);
    throw new RunError(runErrorMessage(cause, status), { result: result(status), cause });
  };

  const result = (status: RunStatus): RunResult =>
    Object.freeze({ id, status, steps: { ...run.steps }, trace: trace.close(), usage: { ...run.usage }, cost: { ...run.cost } });

  const promise = drive();
  // A caller that never reads `result` must not crash the process; whoever awaits it still sees the error.
  promise.catch(() => {});

  return {
    id,
    result: promise,
    get requests() {
      return run.approvals.requests;
    },
    get policyDecisions() {
      return run.approvals.policyDecisions;
    },
    decide: (requestId, decision) => run.approvals.decide(requestId, decision),
    answer: (requestId, value) => run.approvals.answer(requestId, value),
    cancel: (reason) => {
      if (finished || controller.signal.aborted) return;
      spans?.event("june.cancel");
      controller.abort(new CanceledError(reason ?? "The run was canceled"));
    },
    steer: (input) => {
      if (typeof input !== "string") throw new TypeError("steer(input): input must be a string");
      if (finished) return;
      spans?.event("june.steer", input);
      run.steer.steer(input);
    },
    restored: checkpoints?.restored ?? Promise.resolve(),
  };
}

/**
 * The run's checkpointer, when it saves checkpoints or starts from one. A checkpoint whose waiting step the
 * workflow no longer has is refused here when the whole workflow is static (no render function can add the
 * step later); otherwise the run fails with the same error when it ends without reaching it.
 */
function checkpointerFor(options: StartOptions, plan: readonly PlanNode[], stepIds: ReadonlySet<string>): Checkpointer | undefined {
  const { checkpoint, onCheckpoint } = options;
  if (checkpoint === undefined && onCheckpoint === undefined) return undefined;
  if (onCheckpoint !== undefined && typeof onCheckpoint !== "function") throw new TypeError("start(): onCheckpoint must be a function");
  if (checkpoint !== undefined) {
    assertRunCheckpoint(checkpoint);
    // A sub-workflow's step (`"<step>/<tool>/<id>"`) runs again when its calling step, waiting too, does.
    const missing = Object.keys(checkpoint.waiting).filter((stepId) => !stepIds.has(stepId) && !insideWaitingStep(stepId, checkpoint.waiting, stepIds));
    if (missing.length > 0 && !hasDynamicParts(plan)) throw new CheckpointMismatchError({ stepIds: missing });
  }
  return new Checkpointer(checkpoint, onCheckpoint);
}

/** True when `key` is a sub-workflow's step whose calling step (the first part of its path) waits in the checkpoint. */
function insideWaitingStep(key: string, waiting: RunCheckpoint["waiting"], stepIds: ReadonlySet<string>): boolean {
  for (let at = key.indexOf("/"); at > 0; at = key.indexOf("/", at + 1)) {
    const caller = key.slice(0, at);
    if (stepIds.has(caller) && Object.hasOwn(waiting, caller)) return true;
  }
  return false;
}

/** True when running the plan may render more steps (a render function, a `Catch` with a fallback function). */
function hasDynamicParts(nodes: readonly PlanNode[]): boolean {
  return nodes.some((node) => {
    switch (node.kind) {
      case "render":
        return true;
      case "step":
        return false;
      case "catch":
        return typeof node.fallback === "function" || hasDynamicParts(node.children) || hasDynamicParts(node.fallback);
      case "agent":
      case "sequence":
      case "parallel":
        return hasDynamicParts(node.children);
      default: {
        const unreachable: never = node;
        return unreachable;
      }
    }
  });
}

function checkOptions(options: StartOptions): void {
  const { concurrency, timeout, onUpdate, signal } = options;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw new RangeError(`start(): concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0 && Number.isFinite(timeout))) {
    throw new RangeError(`start(): timeout must be a positive number of milliseconds, got ${String(timeout)}`);
  }
  if (onUpdate !== undefined && typeof onUpdate !== "function") throw new TypeError("start(): onUpdate must be a function");
  if (options.onAside !== undefined && typeof options.onAside !== "function") throw new TypeError("start(): onAside must be a function");
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError("start(): signal must be an AbortSignal");
  if (options.mcp !== undefined && sourceOf(options.mcp) === undefined) throw new TypeError("start(): mcp must be made by mcpConnections()");
  validateGuardrails(options.guardrails, "start({ guardrails })");
  if (options.toolApproval !== undefined && typeof options.toolApproval !== "function" && (typeof options.toolApproval !== "object" || options.toolApproval === null || Array.isArray(options.toolApproval))) {
    throw new TypeError("start({ toolApproval }): must be an object of rules by tool name, or a function");
  }
}

function runErrorMessage(cause: unknown, status: RunStatus): string {
  if (status === "canceled") return cause instanceof Error ? cause.message : "The run was canceled";
  if (TimeoutError.isInstance(cause)) return cause.message;
  return `The run failed: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/** The run's budget check: what the run spent (its checkpoint's included) against `budget`, `spent` before it. */
function budgetCheck(options: StartOptions, state: () => RunState): (() => void) | undefined {
  const budget = checkBudget(options.budget, "start()");
  if (!budget) return undefined;
  const before = options.spent;
  return () => {
    const run = state();
    assertWithinBudget(budget, { tokens: run.usage.totalTokens, usd: run.cost.usd ?? 0 }, before);
  };
}
