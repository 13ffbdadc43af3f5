import type { LanguageModel } from "ai";
import { stepAsk } from "./step-ask.js";
import { assertJsonSafe } from "./checkpoint.js";
import { RestoredFailureError, TimeoutError } from "./errors.js";
import { runModelStep } from "./model-step.js";
import { lookup, type StepPlan } from "./render.js";
import { endFields, isCanceled, makeContext, stepKey, toTraceError, type Env } from "./run-state.js";
import { linkedController, raceAbort } from "./scheduler.js";
import type { Usage } from "./types.js";
import { modelInfo } from "./usage.js";
import type { Cost } from "../cost/price.js";

/**
 * Runs one `<Step>`: adds its trace node, arms its timeout, runs its `run` function or its model loop, and
 * records its result in `ctx.steps`. On failure the step's pending approvals are withdrawn and its open trace
 * nodes end with it.
 */
export async function executeStep(node: StepPlan, env: Env): Promise<void> {
  const { run } = env;
  const { props } = node;
  const model = props.run ? undefined : lookup(node.scope, (s) => s.model);
  const checkpoints = run.checkpoints;
  // The step's key in the run: its id, after the path of the sub-workflow it belongs to (a `<Tool agent>`).
  const key = stepKey(run, node.id);
  if (checkpoints?.isCompleted(key)) return restoreDone(node, env, model, key);
  const failure = checkpoints?.failure(key);
  if (failure) return restoreFailure(node, env, failure);
  const nodeId = run.trace.add(env.parentId, {
    kind: "step",
    name: node.id,
    status: "running",
    startedAt: Date.now(),
    partialText: "",
    ...(model !== undefined ? { model: modelInfo(model) } : {}),
    ...(props.stream !== undefined ? { stream: props.stream } : {}),
    ...(props.output !== undefined ? { structured: true } : {}),
  });
  run.spans?.stepStarted(nodeId, key);
  // A step's own signal, linked to the run's, for a timeout and for the user's code (`run`, a prompt function):
  // what it listens on `ctx.signal` ends with the step. A model step with a prompt given as a value and no
  // timeout hands its signal to June's own code only, which unlinks whatever it adds: the run's signal serves
  // (an AbortSignal and its listener cost a few microseconds each).
  const ownSignal = props.timeout !== undefined || props.run !== undefined || typeof props.prompt === "function";
  const linked = ownSignal ? linkedController(env.signal) : undefined;
  const timer =
    linked === undefined || props.timeout === undefined
      ? undefined
      : setTimeout(() => {
          const message = `Step "${node.id}" timed out after ${props.timeout} ms`;
          linked.controller.abort(new TimeoutError(message, { timeout: props.timeout!, stepId: node.id }));
        }, props.timeout);
  const signal = linked === undefined ? env.signal : linked.controller.signal;
  try {
    const ctx = makeContext(run, signal, props.run ? stepAsk(run, node.id, nodeId, signal) : undefined);
    const result = props.run
      ? await raceAbort(props.run(ctx), signal)
      : await runModelStep({ plan: node, run, stepNodeId: nodeId, ctx, signal });
    signal.throwIfAborted();
    if (checkpoints?.saving) {
      assertJsonSafe(result, key);
      await raceAbort(checkpoints.stepDone(key, result), signal);
    }
    run.steps[node.id] = result;
    run.trace.update(nodeId, { status: "done", endedAt: Date.now(), result });
    run.spans?.stepEnded(nodeId, "done", undefined, run.trace.field(nodeId, "usage") as Usage | undefined, run.trace.field(nodeId, "cost") as Cost | undefined);
  } catch (error) {
    const cause = signal.aborted ? signal.reason : error;
    run.approvals.withdrawStep(key);
    // A failure a Catch may handle: on resume the step fails again at once, so the fallback runs again.
    if (checkpoints?.saving && !isCanceled(cause) && !env.signal.aborted) await checkpoints.stepFailed(key, toTraceError(cause)).catch(() => {});
    const end = endFields(cause);
    run.trace.closeOpen(nodeId, isCanceled(cause) ? "canceled" : "error", toTraceError(cause), end.endedAt);
    run.trace.update(nodeId, end);
    run.spans?.stepEnded(nodeId, end.status, cause, run.trace.field(nodeId, "usage") as Usage | undefined, run.trace.field(nodeId, "cost") as Cost | undefined);
    throw cause;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    linked?.dispose();
  }
}

/** A step the run's checkpoint has finished: its node, done with its saved result; nothing runs. */
function restoreDone(node: StepPlan, env: Env, model: LanguageModel | undefined, key: string): void {
  const { run } = env;
  const result = run.checkpoints!.result(key);
  run.steps[node.id] = result;
  const at = Date.now();
  run.trace.add(env.parentId, {
    kind: "step",
    name: node.id,
    status: "done",
    startedAt: at,
    endedAt: at,
    partialText: typeof result === "string" ? result : "",
    result,
    ...(model !== undefined ? { model: modelInfo(model) } : {}),
    ...(node.props.stream !== undefined ? { stream: node.props.stream } : {}),
  });
}

/** A step that failed before the checkpoint: it fails again at once with the saved error (a Catch runs its fallback). */
function restoreFailure(node: StepPlan, env: Env, failure: { name: string; message: string }): never {
  const at = Date.now();
  env.run.trace.add(env.parentId, { kind: "step", name: node.id, status: "error", startedAt: at, endedAt: at, partialText: "", error: failure });
  throw new RestoredFailureError({ stepId: node.id, failure });
}
