import { CanceledError, RenderError } from "./errors.js";
import { childScope, lookup, renderWorkflow, type CatchPlan, type ParallelPlan, type PlanNode, type RenderPlan } from "./render.js";
import { endFields, makeContext, toTraceError, type Env } from "./run-state.js";
import { linkedController, raceAbort, Semaphore, type Release } from "./scheduler.js";
import { executeStep } from "./step.js";
import type { NewNode } from "./trace-store.js";
import { modelInfo } from "./usage.js";

/** Runs plan nodes in sequence, in document order. */
export async function executeAll(nodes: readonly PlanNode[], env: Env): Promise<void> {
  for (const node of nodes) {
    env.signal.throwIfAborted();
    await executeNode(node, env);
  }
}

/**
 * Runs one plan node under `env.parentId` in the trace. Not `async`: it hands back the promise of the node's
 * own function rather than wrapping it in another (a turn goes through a few of these). Its callers await it
 * inside `async` functions, so a throw here rejects there as before.
 */
export function executeNode(node: PlanNode, env: Env): Promise<void> {
  switch (node.kind) {
    case "sequence":
      return executeAll(node.children, env);
    case "agent": {
      const model = lookup(node.scope, (s) => s.model);
      const fields: NewNode = { kind: "agent", name: node.name, status: "running", ...(model ? { model: modelInfo(model) } : {}) };
      return withNode(env, fields, (inner) => executeAll(node.children, inner));
    }
    case "parallel":
      return withNode(env, { kind: "parallel", name: "Parallel", status: "running" }, (inner) => executeParallel(node, inner));
    case "catch":
      return withNode(env, { kind: "catch", name: "Catch", status: "running" }, (inner) => executeCatch(node, inner));
    case "step":
      return executeStep(node, env);
    case "render":
      return executeRender(node, env);
    default: {
      const unreachable: never = node;
      // Internal invariant (bare Error on purpose): the `never` check above makes this unreachable.
      throw new Error(`june: unknown plan node ${String((unreachable as PlanNode).kind)}`);
    }
  }
}

/** Adds a structural trace node, runs `body` below it and ends the node by how `body` ended. */
async function withNode(env: Env, fields: NewNode, body: (inner: Env) => Promise<void>): Promise<void> {
  const { trace } = env.run;
  // Object.assign, not `{ ...fields, startedAt }` (V8's slow path for a spread that a literal adds to).
  const id = trace.add(env.parentId, Object.assign({}, fields, { startedAt: Date.now() }));
  try {
    await body({ ...env, parentId: id });
    trace.update(id, { status: "done", endedAt: Date.now() });
  } catch (error) {
    trace.update(id, endFields(error));
    throw error;
  }
}

/**
 * Runs every branch at once (at most `concurrency`). The first branch to fail aborts its running siblings
 * (they end `canceled`) and the `Parallel` fails with that error once every branch has settled.
 */
async function executeParallel(node: ParallelPlan, env: Env): Promise<void> {
  const slots = new Semaphore(node.concurrency);
  const { controller, dispose } = linkedController(env.signal);
  let failure: { error: unknown } | undefined;
  const branch = async (child: PlanNode) => {
    let release: Release | undefined;
    try {
      release = await slots.acquire(controller.signal);
      await executeNode(child, { ...env, signal: controller.signal });
    } catch (error) {
      if (!failure && !controller.signal.aborted) {
        failure = { error };
        controller.abort(new CanceledError("Canceled: a sibling in <Parallel> failed", { cause: error }));
      }
    } finally {
      release?.();
    }
  };
  try {
    await Promise.all(node.children.map(branch));
  } finally {
    dispose();
  }
  env.signal.throwIfAborted();
  if (failure) throw failure.error;
}

/**
 * Runs the children in sequence; when one fails (not because the run was canceled or a sibling aborted this
 * branch), records the error on the catch node and runs the fallback. A `RenderError` is a fault in the
 * workflow itself and is never caught.
 */
async function executeCatch(node: CatchPlan, env: Env): Promise<void> {
  try {
    await executeAll(node.children, env);
  } catch (error) {
    if (env.signal.aborted || RenderError.isInstance(error)) throw error;
    env.run.trace.update(env.parentId, { error: toTraceError(error) });
    const fallback =
      typeof node.fallback === "function"
        ? renderWorkflow(await node.fallback(error), childScope(node.scope), env.run.stepIds)
        : node.fallback;
    await executeAll(fallback, env);
  }
}

/** Calls a render function when the sequence reaches it, then renders (and validates) and runs its output. */
async function executeRender(node: RenderPlan, env: Env): Promise<void> {
  const output = await raceAbort(node.fn(makeContext(env.run, env.signal)), env.signal);
  const plan = renderWorkflow(output, childScope(node.scope), env.run.stepIds);
  await executeAll(plan, env);
}
