import type { ModelMessage, Tool as AITool } from "ai";

/**
 * What an approval rule decides for one tool call (AI SDK 7's `ToolApprovalStatus`): `not-applicable` runs the
 * tool as usual (its own `needsApproval` still applies), `approved` runs it, `denied` never runs it and tells
 * the model why, `user-approval` asks a person. `approved` and `denied` are decided by policy: no one is asked.
 */
export type ToolApprovalStatus = "not-applicable" | "approved" | "denied" | "user-approval";

/** A status, or the object form that carries a reason (shown in the trace, the journal, the span, and for a denial to the model). */
export type ToolApprovalDecision = ToolApprovalStatus | { readonly type: ToolApprovalStatus; readonly reason?: string } | undefined;

/** What a per-tool rule's function gets besides the call's input. */
export interface ToolApprovalRuleOptions {
  readonly toolCallId: string;
  /** The messages sent to the model for the call that produced the tool call. */
  readonly messages: ModelMessage[];
}

/** One tool's rule: a decision, or a function of the call's input that returns one. */
export type ToolApprovalRule =
  | ToolApprovalDecision
  | ((input: any, options: ToolApprovalRuleOptions) => ToolApprovalDecision | PromiseLike<ToolApprovalDecision>);

/** One function for every tool call (AI SDK 7's `GenericToolApprovalFunction`). */
export type ToolApprovalFunction = (call: {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly tools: Readonly<Record<string, AITool<any, any>>>;
  readonly messages: ModelMessage[];
}) => ToolApprovalDecision | PromiseLike<ToolApprovalDecision>;

/**
 * `toolApproval` of `<Agent>` and `<Step>`, in AI SDK 7's shapes: rules by tool name, or one function for
 * every call. June applies it itself (the same on AI SDK 6 and 7).
 *
 * @example
 * <Agent model={model} toolApproval={{ deploy: "user-approval", rm: { type: "denied", reason: "Deleting is disabled here" } }}>
 */
export type ToolApprovalPolicy = { readonly [toolName: string]: ToolApprovalRule } | ToolApprovalFunction;

/** A decision made by policy for one tool call: what June records in place of a person's answer. */
export interface PolicyDecision {
  readonly approved: boolean;
  readonly reason?: string;
}

const STATUSES: ReadonlySet<string> = new Set<ToolApprovalStatus>(["not-applicable", "approved", "denied", "user-approval"]);

/** What `policy` says about `toolName`: nothing when it has no rule for it. */
export function ruleFor(policy: ToolApprovalPolicy | undefined, toolName: string): ToolApprovalRule | ToolApprovalFunction | undefined {
  if (policy === undefined) return undefined;
  if (typeof policy === "function") return policy;
  return Object.hasOwn(policy, toolName) ? policy[toolName] : undefined;
}

/**
 * Evaluates a rule for one call, as `{ type, reason? }`. A value that is not a status fails the call with a
 * `TypeError` naming the tool (a typo must not run a tool that was meant to be asked about).
 */
export async function evaluateRule(
  rule: ToolApprovalRule | ToolApprovalFunction,
  policyIsGeneric: boolean,
  call: { toolCallId: string; toolName: string; input: unknown; messages: ModelMessage[]; tools: Readonly<Record<string, AITool<any, any>>> },
): Promise<{ type: ToolApprovalStatus; reason?: string }> {
  const value =
    typeof rule === "function"
      ? policyIsGeneric
        ? await (rule as ToolApprovalFunction)({ toolCall: { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }, tools: call.tools, messages: call.messages })
        : await (rule as Exclude<ToolApprovalRule, ToolApprovalDecision>)(call.input, { toolCallId: call.toolCallId, messages: call.messages })
      : rule;
  return normalize(value, call.toolName);
}

function normalize(value: ToolApprovalDecision, toolName: string): { type: ToolApprovalStatus; reason?: string } {
  if (value === undefined) return { type: "not-applicable" };
  const type = typeof value === "string" ? value : typeof value === "object" && value !== null ? value.type : undefined;
  if (typeof type !== "string" || !STATUSES.has(type)) {
    throw new TypeError(`toolApproval for "${toolName}" must be one of ${[...STATUSES].join(", ")} (or { type, reason }), got ${JSON.stringify(value)}`);
  }
  const reason = typeof value === "object" && value !== null ? value.reason : undefined;
  return reason === undefined ? { type: type as ToolApprovalStatus } : { type: type as ToolApprovalStatus, reason: String(reason) };
}
