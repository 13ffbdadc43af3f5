import { questionOf } from "./questions.js";
import type { RunState } from "./run-state.js";
import { checkEdit, type EditChecks } from "./edited-input.js";
import { toTraceError } from "./run-state.js";
import type { PolicyDecision } from "./tool-approval.js";
import type { ApprovalOutcome } from "./approvals.js";
import type { ApprovalState } from "./types.js";
import { addUsage } from "./usage.js";
import { addCost, type Cost } from "../cost/price.js";
import type { CallHost, OpenApproval, ToolHost } from "./model-engine/call-model.js";

/** A model step as its calls meet it: where their nodes go in the run's trace, and its tools' nodes. */
export interface StepCall {
  readonly run: RunState;
  readonly stepId: string;
  readonly stepNodeId: string;
  /** The step's signal. */
  readonly signal: AbortSignal;
  /** Trace node of each tool call the step made, by `toolCallId` (a resumed call reports earlier calls). */
  readonly toolNodes: Map<string, string>;
  /** The MCP server and tool name of each MCP tool, by the name the model calls it. */
  readonly mcpOrigins?: ReadonlyMap<string, { readonly server: string; readonly tool: string }>;
  /**
   * What an approval's edited input is checked with before its tool may run: the step's tools (their schemas),
   * tool guardrails and `toolApproval`, as the model's own input is (`checkEdit`).
   */
  readonly editChecks?: EditChecks;
  /** Tool calls the step's `toolApproval` decided (by tool call id): answered at once, never shown pending. */
  readonly policyDecisions?: ReadonlyMap<string, PolicyDecision>;
  /** Told of the step's text as it grows (all its model calls' text): a step with an `output` parses it. */
  readonly onText?: (stepText: string) => void;
  /** The step's `ask_user` tool names (`<AskUser />`): their calls are questions, answered, not approved. */
  readonly askTools?: ReadonlySet<string>;
}

/**
 * The engine's host for one call of a model step: the call's node under the step's node in the run's trace,
 * its text on both (after what earlier calls of the step wrote), its tools' nodes and approvals, a slot of the
 * run's `concurrency`, its tokens on the step and the run, its span under the step's.
 */
export function stepHost(step: StepCall): CallHost {
  const { run, stepNodeId } = step;
  const { trace } = run;
  // What earlier calls of this step wrote (an interrupted call's text, before its continuation).
  const stepText = (trace.field(stepNodeId, "partialText") as string | undefined) ?? "";
  return {
    open: (node) => trace.add(stepNodeId, node),
    update: (nodeId, patch) => trace.update(nodeId, patch),
    end: (nodeId, patch) => {
      if (nodeId !== undefined) trace.update(nodeId, patch);
    },
    text: (text, _delta, nodeId) => {
      // One string for the call's text, its node's and (after what earlier calls of the step wrote) the
      // step's: `"" + text` is `text` itself, so a step's first call and its result share it.
      if (nodeId !== undefined) trace.setText(nodeId, text);
      trace.setText(stepNodeId, stepText + text);
      step.onText?.(stepText + text);
    },
    aside: run.onAside && ((aside) => run.onAside!({ stepId: step.stepId, text: (trace.field(stepNodeId, "partialText") as string | undefined) ?? "", aside })),
    span: (info) => run.spans?.modelCall(stepNodeId, info),
    acquire: (signal) => run.modelSlots.acquire(signal),
    usage: (usage) => {
      trace.update(stepNodeId, { usage: Object.freeze(addUsage(trace.field(stepNodeId, "usage") as never, usage)) });
      run.usage = addUsage(run.usage, usage);
    },
    cost: (cost) => {
      trace.update(stepNodeId, { cost: Object.freeze(addCost(trace.field(stepNodeId, "cost") as Cost | undefined, cost)) });
      run.cost = addCost(run.cost, cost);
    },
    tools: stepTools(step),
  };
}

function stepTools(step: StepCall): ToolHost {
  const { trace } = step.run;
  return {
    called: (part) => void toolNode(step, part),
    approval: (approvalId, toolCall) => {
      const byPolicy = step.policyDecisions?.get(toolCall.toolCallId);
      return byPolicy ? decideByPolicy(step, approvalId, toolCall, byPolicy) : openApproval(step, approvalId, toolCall);
    },
    answered: (part) => {
      const nodeId = toolNode(step, part);
      switch (part.type) {
        case "tool-result":
          return trace.update(nodeId, part.preliminary ? { output: part.output } : { output: part.output, status: "done", endedAt: Date.now() });
        case "tool-error":
          return trace.update(nodeId, { status: "error", endedAt: Date.now(), error: toTraceError(part.error) });
        case "tool-output-denied": {
          const approval = trace.field(nodeId, "approval") as { id: string; reason?: string } | undefined;
          return trace.update(nodeId, {
            status: "done",
            endedAt: Date.now(),
            ...(approval ? { approval: { ...approval, state: "denied" satisfies ApprovalState } } : {}),
          });
        }
        default: {
          const unreachable: never = part;
          throw new TypeError(`june: unknown tool part ${String(unreachable)}`);
        }
      }
    },
  };
}

/**
 * Marks the call `pending`, adds the request to `requests`, then commits: the commit that shows the row
 * pending is the first moment anyone can see the request (an observer reads `requests` in `onUpdate`), so a UI
 * that hears of a request already has its row.
 */
export function openApproval(
  step: StepCall,
  approvalId: string,
  toolCall: { toolCallId: string; toolName: string; input: unknown },
  options: { retry?: boolean } = {},
): OpenApproval {
  const { trace, approvals } = step.run;
  const nodeId = toolNode(step, toolCall);
  trace.update(nodeId, { status: "pending", approval: { id: approvalId, state: "pending" } });
  const wait = approvals.open(
    {
      id: approvalId,
      stepId: step.stepId,
      toolName: toolCall.toolName,
      toolCallId: toolCall.toolCallId,
      input: toolCall.input,
      ...(options.retry ? { retry: true } : {}),
      ...mcpOf(step, toolCall.toolName),
      ...(step.askTools?.has(toolCall.toolName) ? { question: questionOf(toolCall.input) } : {}),
    },
    {
      signal: step.signal,
      ...(step.editChecks ? { checkEdit: (input: unknown) => checkEdit(step.editChecks!, toolCall, input) } : {}),
      onSettle: (outcome) => {
        step.run.spans?.approvalSettled(approvalId, outcome);
        switch (outcome.kind) {
          case "approved":
            // An edited call shows the input it runs with.
            return trace.update(
              nodeId,
              outcome.input === undefined
                ? { status: "running", approval: { id: approvalId, state: "approved" } }
                : { status: "running", input: outcome.input, approval: { id: approvalId, state: "approved", edited: true } },
            );
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
  step: StepCall,
  approvalId: string,
  toolCall: { toolCallId: string; toolName: string; input: unknown },
  decision: PolicyDecision,
): OpenApproval {
  const { trace, approvals } = step.run;
  const nodeId = toolNode(step, toolCall);
  const reason = decision.reason !== undefined ? { reason: decision.reason } : {};
  const outcome: ApprovalOutcome = decision.approved ? { kind: "approved" } : { kind: "denied", ...reason };
  const approval = { id: approvalId, state: decision.approved ? ("approved" as const) : ("denied" as const), decidedBy: "policy" as const, ...reason };
  if (!decision.approved) approvals.markDenied(step.stepId, toolCall.toolCallId);
  approvals.recordPolicyDecision({ id: approvalId, stepId: step.stepId, toolName: toolCall.toolName, toolCallId: toolCall.toolCallId, approved: decision.approved, ...reason });
  step.run.spans?.approvalSettled(approvalId, outcome, "policy");
  trace.update(nodeId, decision.approved ? { status: "running", approval } : { status: "done", endedAt: Date.now(), approval });
  return { approvalId, wait: Promise.resolve(outcome), toolCall: { toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: toolCall.input } };
}

/** The trace node of a tool call, made in this call or an earlier one of the step (created if unseen). */
export function toolNode(step: StepCall, part: { toolCallId: string; toolName: string; input?: unknown }): string {
  const existing = step.toolNodes.get(part.toolCallId);
  if (existing) return existing;
  const nodeId = step.run.trace.add(step.stepNodeId, {
    kind: "tool-call",
    name: part.toolName,
    status: "running",
    startedAt: Date.now(),
    toolName: part.toolName,
    toolCallId: part.toolCallId,
    input: part.input,
    ...mcpOf(step, part.toolName),
  });
  step.toolNodes.set(part.toolCallId, nodeId);
  return nodeId;
}

/** `{ mcp: { server, tool } }` for a tool of an MCP server, else nothing. */
function mcpOf(step: StepCall, toolName: string): { mcp?: { server: string; tool: string } } {
  const origin = step.mcpOrigins?.get(toolName);
  return origin ? { mcp: { server: origin.server, tool: origin.tool } } : {};
}

