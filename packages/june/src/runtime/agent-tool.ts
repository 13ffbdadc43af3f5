import { getErrorMessage } from "@ai-sdk/provider";
import type { ModelMessage, Tool as AITool, ToolResultPart } from "ai";
import type { AgentToolProps, AgentToolRun, WorkflowNode } from "./components.js";
import { assertJsonSafe } from "./checkpoint.js";
import { RenderError } from "./errors.js";
import { endFields, isCanceled, type RunState } from "./run-state.js";
import { toolNode, type StepCall } from "./step-call.js";
import type { Usage } from "./types.js";
import { ZERO_USAGE } from "./usage.js";

/** What a `<Tool agent>` keeps on the AI SDK tool it stands for: how to run one call. */
const AGENT_TOOL = Symbol.for("june.agentTool");

interface AgentToolDef {
  readonly agent: (input: unknown) => WorkflowNode;
  readonly result?: (run: AgentToolRun) => unknown;
}

/** A tool call the model made to a `<Tool agent>` that has no result yet. */
export interface AgentCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/**
 * The AI SDK tool a `<Tool agent>` stands for: its description and input schema, no `execute` (the AI SDK hands
 * the call back and the step runs the workflow between model calls, where it can suspend and resume).
 */
export function agentToolValue(props: AgentToolProps): AITool<any, any> {
  const value: Record<PropertyKey, unknown> = { inputSchema: props.inputSchema };
  if (props.description !== undefined) value.description = props.description;
  const def: AgentToolDef = { agent: props.agent, ...(props.result ? { result: props.result } : {}) };
  // Enumerable, so a copy of the tool made by spreading it (`{ ...tool }`) still knows what it stands for.
  value[AGENT_TOOL] = def;
  return value as AITool<any, any>;
}

function defOf(tool: AITool<any, any> | undefined): AgentToolDef | undefined {
  return tool ? ((tool as unknown as Record<PropertyKey, unknown>)[AGENT_TOOL] as AgentToolDef | undefined) : undefined;
}

/** True when some of a step's tools are `<Tool agent>`s. */
export function hasAgentTools(tools: Readonly<Record<string, AITool<any, any>>>): boolean {
  for (const name in tools) if (defOf(tools[name])) return true;
  return false;
}

/** The last assistant message's calls to `<Tool agent>`s that no tool message after it answers, in order. */
export function pendingAgentCalls(messages: readonly ModelMessage[], tools: Readonly<Record<string, AITool<any, any>>>): AgentCall[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]!.role !== "assistant") last--;
  if (last < 0) return [];
  const assistant = messages[last]!;
  if (typeof assistant.content === "string") return [];
  const answered = new Set<string>();
  for (const message of messages.slice(last + 1)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  const calls: AgentCall[] = [];
  for (const part of assistant.content) {
    if (part.type !== "tool-call" || answered.has(part.toolCallId) || !defOf(tools[part.toolName])) continue;
    calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
  }
  return calls;
}

/**
 * Runs the model's calls to `<Tool agent>`s (at the same time), each as a sub-workflow of this run under its
 * call's trace node, and returns the messages with their results added (to the last tool message, or a new
 * one). A sub-workflow that fails answers with its error, which the model sees; a cancel, or a `RenderError` (a
 * fault in the workflow, not in its run), is thrown.
 */
export async function runAgentCalls(
  step: StepCall,
  calls: readonly AgentCall[],
  messages: readonly ModelMessage[],
  tools: Readonly<Record<string, AITool<any, any>>>,
): Promise<ModelMessage[]> {
  const results = await Promise.all(calls.map((call) => runAgentCall(step, call, defOf(tools[call.toolName])!, subPath(step.stepId, call, messages))));
  const lastMessage = messages.at(-1);
  if (lastMessage?.role === "tool") return [...messages.slice(0, -1), { role: "tool", content: [...lastMessage.content, ...results] }];
  return [...messages, { role: "tool", content: results }];
}

/**
 * A sub-workflow's place in the run: `"<step>/<tool>"`, and `"<step>/<tool>#<n>"` for the n-th call of the same
 * tool in the step's messages. The same messages give the same path, so a resumed run finds its checkpoint.
 */
function subPath(stepId: string, call: AgentCall, messages: readonly ModelMessage[]): string {
  let n = 0;
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type !== "tool-call" || part.toolName !== call.toolName) continue;
      n++;
      if (part.toolCallId === call.toolCallId) return `${stepId}/${call.toolName}${n > 1 ? `#${n}` : ""}`;
    }
  }
  return `${stepId}/${call.toolName}`;
}

async function runAgentCall(step: StepCall, call: AgentCall, def: AgentToolDef, path: string): Promise<ToolResultPart> {
  const { trace } = step.run;
  const nodeId = toolNode(step, call);
  trace.update(nodeId, { status: "running" });
  const sub = subRun(step.run, path);
  try {
    await step.run.runWorkflow(def.agent(call.input), { run: sub.run, parentId: nodeId, signal: step.signal });
    step.signal.throwIfAborted();
    const finished: AgentToolRun = Object.freeze({ steps: Object.freeze({ ...sub.run.steps }), usage: sub.usage() });
    const value = def.result ? await def.result(finished) : lastResult(sub.run.steps);
    if (step.run.checkpoints?.saving) assertJsonSafe(value, path);
    trace.update(nodeId, { status: "done", endedAt: Date.now(), output: value });
    return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: toModelOutput(value) };
  } catch (error) {
    const cause = step.signal.aborted ? step.signal.reason : error;
    trace.update(nodeId, endFields(cause));
    // A cancel cancels the run; a `RenderError` is a fault in the workflow itself, never the model's to handle.
    if (step.signal.aborted || isCanceled(cause) || RenderError.isInstance(cause)) throw cause;
    return { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: { type: "error-text", value: getErrorMessage(cause) } };
  }
}

/**
 * A sub-workflow's view of the run: the same trace, approvals, steer, model slots, checkpoint, spans and MCP
 * connections; its own step ids and results (its steps read `ctx.steps` by their own ids); `path` in front of
 * its step ids wherever the run keys them (approvals, checkpoint). Its usage adds to the run's as it goes.
 */
function subRun(parent: RunState, path: string): { run: RunState; usage: () => Usage } {
  let own: Usage = ZERO_USAGE;
  const run: RunState = {
    id: parent.id,
    trace: parent.trace,
    approvals: parent.approvals,
    steer: parent.steer,
    modelSlots: parent.modelSlots,
    steps: {},
    stepIds: new Set(),
    sources: parent.sources,
    runWorkflow: parent.runWorkflow,
    onAside: parent.onAside,
    path,
    get usage(): Usage {
      return parent.usage;
    },
    set usage(total: Usage) {
      const before = parent.usage;
      own = {
        inputTokens: own.inputTokens + total.inputTokens - before.inputTokens,
        outputTokens: own.outputTokens + total.outputTokens - before.outputTokens,
        totalTokens: own.totalTokens + total.totalTokens - before.totalTokens,
      };
      parent.usage = total;
    },
    // Its cost, prices and budget are the run's: what a sub-agent spends counts against the run's budget.
    get cost() {
      return parent.cost;
    },
    set cost(total) {
      parent.cost = total;
    },
    prices: parent.prices,
    budget: parent.budget,
    ...(parent.defaults ? { defaults: parent.defaults } : {}),
    ...(parent.checkpoints ? { checkpoints: parent.checkpoints } : {}),
    ...(parent.spans ? { spans: parent.spans } : {}),
  };
  return { run, usage: () => ({ ...own }) };
}

/** The result of the step that finished last (a sub-workflow's default answer). */
function lastResult(steps: Readonly<Record<string, unknown>>): unknown {
  const ids = Object.keys(steps);
  return ids.length === 0 ? undefined : steps[ids[ids.length - 1]!];
}

/** A sub-workflow's answer as the model gets it: text for a string (nothing: empty text), else JSON. */
function toModelOutput(value: unknown): ToolResultPart["output"] {
  if (value === undefined) return { type: "text", value: "" };
  return typeof value === "string" ? { type: "text", value } : { type: "json", value: value as never };
}
