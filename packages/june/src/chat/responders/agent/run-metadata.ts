import type { ModelInfo, TraceNode } from "../../../runtime/types.js";

/**
 * The model that answered a run when every step that called a model used the same one (`provider` and
 * `modelId`); `undefined` when steps used different models or none called a model.
 */
export function singleModel(trace: TraceNode): ModelInfo | undefined {
  let found: ModelInfo | undefined;
  let mixed = false;
  const visit = (node: TraceNode): void => {
    if (mixed) return;
    const model = node.kind === "step" || node.kind === "model-call" ? node.model : undefined;
    if (model) {
      if (!found) found = { provider: model.provider, modelId: model.modelId };
      else if (found.provider !== model.provider || found.modelId !== model.modelId) mixed = true;
    }
    for (const child of node.children) visit(child);
  };
  visit(trace);
  return mixed ? undefined : found;
}

/** The node of the step with this id, searched depth-first. */
export function findStep(trace: TraceNode, stepId: string): (TraceNode & { kind: "step" }) | undefined {
  if (trace.kind === "step" && trace.name === stepId) return trace;
  for (const child of trace.children) {
    const found = findStep(child, stepId);
    if (found) return found;
  }
  return undefined;
}

/** The names of the tools step `stepId` called, in the order the tree shows them (none when it has no such step). */
export function stepToolNames(trace: TraceNode | undefined, stepId: string): string[] {
  const step = trace && findStep(trace, stepId);
  const names: string[] = [];
  const walk = (node: TraceNode): void => {
    if (node.kind === "tool-call") names.push(node.toolName);
    for (const child of node.children) walk(child);
  };
  if (step) walk(step);
  return names;
}

/** Ids of the approvals the tree shows pending (a tool call that waits and has not finished). */
export function pendingApprovalIds(trace: TraceNode): Set<string> {
  const ids = new Set<string>();
  const visit = (node: TraceNode): void => {
    if (
      node.kind === "tool-call" &&
      node.approval?.state === "pending" &&
      node.status !== "done" &&
      node.status !== "error" &&
      node.status !== "canceled"
    ) {
      ids.add(node.approval.id);
    }
    for (const child of node.children) visit(child);
  };
  visit(trace);
  return ids;
}
