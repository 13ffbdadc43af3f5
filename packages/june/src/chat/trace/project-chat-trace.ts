import type { ApprovalRequest, ModelInfo, Usage } from "../../runtime/types.js";
import { approvalView, type ApprovalViewSource } from "./approval-view.js";
import type {
  ResponderTraceMessage as TraceMessage,
  ResponderTraceModelCall as ModelCallNode,
  ResponderTraceNode as TraceNode,
  ResponderTraceStatus as NodeStatus,
  ResponderTraceStep as StepNode,
  ResponderTraceToolCall as ToolCallNode,
} from "./responder-trace.js";

type ApprovalState = NonNullable<ToolCallNode["approval"]>["state"];
type TraceError = NonNullable<TraceNode["error"]>;
import { redact, redactText } from "../../redaction/redact.js";
import { DEFAULT_EXCERPT_CHARS, excerpt, truncate } from "../../redaction/excerpt.js";
import type { Cost } from "../../cost/price.js";

/** A row's state: `done` once it finished, `error` when it failed or was canceled. */
export type ChatTraceRowStatus = "running" | "error" | "pending" | "done";

interface ChatTraceRowBase {
  /** Stable from one snapshot to the next (derived from the trace node's id). */
  id: string;
  /** Says the row's state, for a person: "Running research", "research finished", "deploy needs approval", "fetch failed". */
  title: string;
  status: ChatTraceRowStatus;
  children: ChatTraceRow[];
  /** The failure, as `Name: message`, bounded and redacted. */
  error?: string;
  /** True when the row ended because its run was canceled (its status is then `error`). */
  canceled?: boolean;
  /** When its node started and ended (epoch milliseconds), once known: a UI shows how long it took. */
  startedAt?: number;
  endedAt?: number;
}

/** A `<Step>`: the top rows, whatever `Parallel`, `Catch` or `Agent` they sit in. */
export interface ChatTraceStepRow extends ChatTraceRowBase {
  kind: "step";
  /** The step's `id` in the workflow. */
  stepId: string;
  /** What the step wrote so far, bounded and redacted. */
  text?: string;
  model?: ModelInfo;
  usage?: Usage;
  /** What the step's model calls cost; left out while a model's price is not known. */
  cost?: Cost;
  /**
   * A streamed step with an `output`: the value parsed so far (its node's `partialOutput`), redacted; its
   * result once it is done. `/ui-chat` sends it as a `data-june-output` part.
   */
  output?: unknown;
}

/** One model call: of a step, or a model chat's turn (a top row then). */
export interface ChatTraceModelRow extends ChatTraceRowBase {
  kind: "model";
  model: ModelInfo;
  usage?: Usage;
  /** What the call cost; left out when the model's price is not known. */
  cost?: Cost;
  finishReason?: string;
  /** What the call wrote so far, bounded and redacted. */
  text?: string;
  /** What the call reasoned (thinking, a reasoning summary), a bounded, redacted excerpt of its head. */
  reasoning?: string;
  /** What the call was sent: the system prompt, then its last messages, each a bounded, redacted excerpt. */
  prompt?: ChatTraceMessage[];
  /** How many earlier messages the prompt excerpt leaves out. */
  promptOmitted?: number;
  /** What the call answered (text, tool calls), once it finished, as bounded, redacted excerpts. */
  response?: ChatTraceMessage[];
  /** The request under way, from 1: above 1 while the AI SDK retries. */
  attempt?: number;
  /** The requests that failed, oldest first: each retried, then the last, if it failed too. */
  failedAttempts?: ChatTraceAttempt[];
}

/** One message of a model call's prompt or response, as a row shows it. */
export interface ChatTraceMessage {
  role: "system" | "user" | "assistant" | "tool";
  /** A bounded, redacted excerpt of its content. */
  text: string;
}

/** A request of a model call that failed. */
export interface ChatTraceAttempt {
  attempt: number;
  startedAt: number;
  endedAt: number;
  /** The failure, as `Name: message`, bounded and redacted. */
  error: string;
}

/** One tool call of a step; a `<Tool agent>`'s has its sub-workflow's step rows as children. */
export interface ChatTraceToolRow extends ChatTraceRowBase {
  kind: "tool";
  toolName: string;
  toolCallId: string;
  /** A bounded, redacted excerpt of the tool's input. */
  input: string;
  /** A bounded, redacted excerpt of the tool's output, once it has one. */
  output?: string;
  /**
   * `decidedBy: "policy"`: the workflow's `toolApproval` decided, no one was asked. `edited`: a person approved
   * it with a changed input (`input` is the one it ran with).
   */
  approval?: { state: ApprovalState; reason?: string; decidedBy?: "policy"; edited?: true };
  /** The MCP server's name, for a tool of an `<McpTools>`. */
  server?: string;
}

/** A tool call waiting for a decision: pass `approvalId` to `turn.approve` or `turn.deny`. */
export interface ChatTraceApprovalRow extends ChatTraceRowBase {
  kind: "approval";
  approvalId: string;
  toolName: string;
  /** A bounded, redacted excerpt of the input the tool would run with. */
  input: string;
  /** The input, redacted, as JSON (see `ApprovalView.inputValue`): what an Edit action opens. */
  inputValue?: unknown;
}

/** A row of a projected chat trace, discriminated on `kind`. */
export type ChatTraceRow = ChatTraceStepRow | ChatTraceModelRow | ChatTraceToolRow | ChatTraceApprovalRow;
export type ChatTraceRowKind = ChatTraceRow["kind"];

/** Options for `projectChatTrace`. */
export interface ProjectChatTraceOptions {
  /** The pending approval requests (`turn.requests`); an approval row shows only while its request is here. */
  requests?: readonly ApprovalRequest[];
  /** Longest tool input/output excerpt (default 300 characters). */
  maxExcerptChars?: number;
  /** Longest step text kept on a row (default 600 characters). */
  maxTextChars?: number;
}

const DEFAULT_TEXT_CHARS = 600;
/** Longest prompt or response message on a row: the trace's own excerpts are shorter (`EXCERPT_CHARS`). */
const MAX_MESSAGE_CHARS = 600;

/**
 * Projects a turn's trace tree (a run's, or any responder's `ResponderTraceNode`) into plain rows for a UI:
 * steps (the top rows, wherever they nest), under each its model calls and tool calls in order, and under a
 * tool call waiting for approval an `approval` row while its request is still pending; a model or tool call
 * outside any step is a top row of its own. Titles say the state, tool inputs and outputs become bounded, redacted
 * excerpts, errors are redacted, and each row's `id` stays the same from one snapshot to the next. Pure and
 * React-free: replace your rows with each new snapshot's.
 *
 * @example
 * for await (const event of turn) {
 *   if (event.type === "run-update") rows = projectChatTrace(event.tree, { requests: turn.requests });
 * }
 */
export function projectChatTrace(tree: TraceNode, options: ProjectChatTraceOptions = {}): ChatTraceRow[] {
  const context: Context = {
    requests: options.requests ?? [],
    maxExcerptChars: options.maxExcerptChars ?? DEFAULT_EXCERPT_CHARS,
    maxTextChars: options.maxTextChars ?? DEFAULT_TEXT_CHARS,
  };
  const rows: ChatTraceRow[] = [];
  collectSteps(tree, context, rows);
  return rows;
}

/**
 * The rows of the requests an unfinished turn waits on when its trace is not at hand (a suspended turn after a
 * restart): each a tool call waiting for approval with its approval row, drawn by the same projection as a
 * live turn's, so every surface shows a parked request as it showed the live one.
 */
export function projectPendingApprovals(requests: readonly ApprovalViewSource[], options: Omit<ProjectChatTraceOptions, "requests"> = {}): ChatTraceRow[] {
  const context: Context = {
    requests: requests.map((request) => ({ stepId: "", ...request })),
    maxExcerptChars: options.maxExcerptChars ?? DEFAULT_EXCERPT_CHARS,
    maxTextChars: options.maxTextChars ?? DEFAULT_TEXT_CHARS,
  };
  return requests.map((request) => {
    const node: ToolCallNode = {
      kind: "tool-call",
      id: `pending-${request.id}`,
      status: "pending",
      startedAt: 0,
      toolName: request.toolName,
      toolCallId: request.toolCallId,
      input: request.input,
      approval: { id: request.id, state: "pending" },
    } as ToolCallNode;
    return toolRow(node, context);
  });
}

interface Context {
  requests: readonly ApprovalRequest[];
  maxExcerptChars: number;
  maxTextChars: number;
}

function collectSteps(node: TraceNode, context: Context, rows: ChatTraceRow[]): void {
  switch (node.kind) {
    case "step":
      rows.push(stepRow(node, context));
      return;
    case "model-call":
      // Outside a step: a model chat's call (`modelResponder`), a row of its own.
      rows.push(modelRow(node, context));
      return;
    case "tool-call":
      // Outside a step: a custom responder's tool call, a row of its own (with its approval row).
      rows.push(toolRow(node, context));
      for (const child of node.children) collectSteps(child, context, rows);
      return;
    case "run":
    case "agent":
    case "parallel":
    case "catch":
    case "group":
      for (const child of node.children) collectSteps(child, context, rows);
      return;
    default: {
      const unreachable: never = node;
      throw new TypeError(`projectChatTrace: unknown trace node kind ${String((unreachable as TraceNode).kind)}`);
    }
  }
}

function stepRow(node: StepNode, context: Context): ChatTraceStepRow {
  const children: ChatTraceRow[] = [];
  for (const child of node.children) collectCalls(child, context, children);
  const name = node.name;
  const row: ChatTraceStepRow = {
    kind: "step",
    id: `step:${node.id}`,
    stepId: name,
    title: redactText(titleFor("step", node.status, name)),
    status: rowStatus(node.status),
    children,
  };
  if (node.partialText) row.text = truncate(redactText(node.partialText), context.maxTextChars);
  if (node.model) row.model = { provider: node.model.provider, modelId: node.model.modelId };
  if (node.usage) row.usage = { ...node.usage };
  if (node.cost?.usd !== undefined) row.cost = { usd: node.cost.usd };
  if (node.stream === true && node.structured === true) {
    const output = node.status === "done" && node.result !== undefined ? node.result : node.partialOutput;
    if (output !== undefined) row.output = redact(output);
  }
  return withFailure(row, node.status, node.error, context, node);
}

/** A step's model and tool calls, in order, flat under the step wherever the runtime nests them. */
function collectCalls(node: TraceNode, context: Context, rows: ChatTraceRow[]): void {
  switch (node.kind) {
    case "model-call":
      rows.push(modelRow(node, context));
      break;
    case "tool-call":
      // A `<Tool agent>`'s sub-workflow nests under its row.
      rows.push(toolRow(node, context));
      return;
    case "step":
      // A step never nests in a step; if one ever does, it is still a step row of its own.
      rows.push(stepRow(node, context));
      return;
    case "run":
    case "agent":
    case "parallel":
    case "catch":
    case "group":
      break;
    default: {
      const unreachable: never = node;
      throw new TypeError(`projectChatTrace: unknown trace node kind ${String((unreachable as TraceNode).kind)}`);
    }
  }
  for (const child of node.children) collectCalls(child, context, rows);
}

function modelRow(node: ModelCallNode, context: Context): ChatTraceModelRow {
  const row: ChatTraceModelRow = {
    kind: "model",
    id: `model:${node.id}`,
    title: redactText(modelTitle(node)),
    status: rowStatus(node.status),
    children: [],
    model: { provider: node.model.provider, modelId: node.model.modelId },
  };
  if (node.usage) row.usage = { ...node.usage };
  if (node.cost?.usd !== undefined) row.cost = { usd: node.cost.usd };
  if (node.finishReason) row.finishReason = node.finishReason;
  if (node.partialText) row.text = truncate(redactText(node.partialText), context.maxTextChars);
  if (node.reasoning) row.reasoning = truncate(redactText(node.reasoning), context.maxTextChars);
  if (node.prompt) row.prompt = node.prompt.map(messageRow);
  if (node.promptOmitted) row.promptOmitted = node.promptOmitted;
  if (node.response) row.response = node.response.map(messageRow);
  if (node.attempt !== undefined && node.attempt > 1) row.attempt = node.attempt;
  if (node.failedAttempts?.length) {
    row.failedAttempts = node.failedAttempts.map((failure) => ({
      attempt: failure.attempt,
      startedAt: failure.startedAt,
      endedAt: failure.endedAt,
      error: errorText(failure.error, context),
    }));
  }
  return withFailure(row, node.status, node.error, context, node);
}

/**
 * The trace keeps excerpts already bounded and redacted (`runtime/message-excerpt.ts`); redacted again here
 * for a tree built elsewhere, and bounded, without a copy when nothing changes (the strings stay shared
 * between snapshots).
 */
function messageRow(message: TraceMessage): ChatTraceMessage {
  return { role: message.role, text: truncate(redactText(String(message.text)), MAX_MESSAGE_CHARS) };
}

function errorText(error: TraceError, context: Context): string {
  const text = error.message ? `${error.name}: ${error.message}` : error.name;
  return truncate(redactText(text), context.maxExcerptChars);
}

function toolRow(node: ToolCallNode, context: Context): ChatTraceToolRow {
  const approval = node.approval;
  const waiting = approval?.state === "pending" && !isFinished(node.status);
  const request = waiting ? context.requests.find((candidate) => candidate.id === approval.id) : undefined;
  const input = excerpt(node.input, context.maxExcerptChars);
  const children: ChatTraceRow[] = [];
  if (request) {
    children.push({
      kind: "approval",
      id: `approval:${request.id}`,
      approvalId: request.id,
      toolName: request.toolName,
      title: redactText(`Run ${request.toolName}?`),
      status: "pending",
      input,
      inputValue: approvalView(request).inputValue,
      children: [],
    });
  }
  // A `<Tool agent>` call: its sub-workflow's steps, as step rows below the tool's.
  for (const child of node.children ?? []) collectSteps(child, context, children);
  const row: ChatTraceToolRow = {
    kind: "tool",
    id: `tool:${node.id}`,
    toolName: node.toolName,
    toolCallId: node.toolCallId,
    title: redactText(toolTitle(node.status, node.toolName, approval, waiting)),
    status: waiting ? "pending" : rowStatus(node.status),
    children,
    input,
  };
  if (node.output !== undefined) row.output = excerpt(node.output, context.maxExcerptChars);
  if (node.mcp) row.server = redactText(node.mcp.server);
  if (approval) {
    row.approval = { state: approval.state };
    if (approval.reason !== undefined) row.approval.reason = truncate(redactText(approval.reason), context.maxExcerptChars);
    if (approval.decidedBy !== undefined) row.approval.decidedBy = approval.decidedBy;
    if (approval.edited === true) row.approval.edited = true;
  }
  return withFailure(row, node.status, node.error, context, node);
}

function withFailure<R extends ChatTraceRow>(
  row: R,
  status: NodeStatus,
  error: TraceError | undefined,
  context: Context,
  node?: { startedAt?: number; endedAt?: number },
): R {
  if (node?.startedAt !== undefined) row.startedAt = node.startedAt;
  if (node?.endedAt !== undefined) row.endedAt = node.endedAt;
  if (status === "canceled") row.canceled = true;
  if (error && (status === "error" || status === "canceled")) row.error = errorText(error, context);
  return row;
}

function isFinished(status: NodeStatus): boolean {
  return status === "done" || status === "error" || status === "canceled";
}

function rowStatus(status: NodeStatus): ChatTraceRowStatus {
  switch (status) {
    case "pending":
      return "pending";
    case "running":
      return "running";
    case "done":
      return "done";
    case "error":
    case "canceled":
      return "error";
    default: {
      const unreachable: never = status;
      throw new TypeError(`projectChatTrace: unknown node status ${String(unreachable)}`);
    }
  }
}

/**
 * The one place a row's title is worded, for a person reading a trace: what is under way reads as an
 * action ("Running research", "Calling gpt-5-mini"), what is over as the name and what became of it
 * ("research finished", "gpt-5-mini answered", "deploy ran", "deploy failed", "deploy denied").
 */
const UNDER_WAY = {
  step: { pending: "Waiting to run", running: "Running" },
  model: { pending: "Waiting for", running: "Calling" },
  tool: { pending: "Waiting to call", running: "Calling" },
} as const;
const DONE = { step: "finished", model: "answered", tool: "ran" } as const;

function titleFor(kind: keyof typeof UNDER_WAY, status: NodeStatus, name: string): string {
  switch (status) {
    case "pending":
    case "running":
      return `${UNDER_WAY[kind][status]} ${name}`;
    case "done":
      return `${name} ${DONE[kind]}`;
    case "error":
      return `${name} failed`;
    case "canceled":
      return `${name} canceled`;
    default: {
      const unreachable: never = status;
      return String(unreachable);
    }
  }
}

function modelTitle(node: ModelCallNode): string {
  const attempt = node.attempt ?? 1;
  if (node.status === "running" && attempt > 1) return `Retrying ${node.model.modelId} (attempt ${attempt})`;
  return titleFor("model", node.status, node.model.modelId);
}

function toolTitle(status: NodeStatus, toolName: string, approval: ToolCallNode["approval"], waiting: boolean): string {
  if (waiting) return `${toolName} needs approval`;
  const byPolicy = approval?.decidedBy === "policy" ? " by policy" : "";
  if (approval?.state === "denied" && status !== "error" && status !== "canceled") return `${toolName} denied${byPolicy}`;
  if (byPolicy && status === "running") return `${toolName} approved by policy, running`;
  // The input was edited by the person who approved it: the row says so in every state after.
  if (approval?.edited === true) return `${titleFor("tool", status, toolName)} (input edited by you)`;
  return titleFor("tool", status, toolName);
}
