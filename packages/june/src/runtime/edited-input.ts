import type { ModelMessage, Tool as AITool } from "ai";
import { REDACTED } from "../redaction/redact.js";
import { firstTrip } from "../guardrails/check.js";
import type { ToolGuardrail } from "../guardrails/types.js";
import { GuardrailTrippedError } from "../errors/guardrail-tripped-error.js";
import { evaluateRule, ruleFor, type ToolApprovalPolicy } from "./tool-approval.js";
import { schemaIssues } from "./tool-input.js";

/** Nesting deeper than this in an edited input or an answer is refused (a tool's input is rarely past 10). */
export const MAX_VALUE_DEPTH = 64;
/** More values than this (every object, array, string, number...) in one edited input or answer is refused. */
export const MAX_VALUE_NODES = 100_000;
/** More characters than this, in strings and keys together, in one edited input or answer is refused. */
export const MAX_VALUE_CHARS = 1_000_000;

/**
 * What is wrong with `value` as a person's edited input or answer, or `undefined` when it is plain JSON within
 * the bounds (`MAX_VALUE_DEPTH`, `MAX_VALUE_NODES`, `MAX_VALUE_CHARS`). Walks without recursion, so a
 * 100,000-deep value is refused here rather than overflowing the stack later. `at` names the value (`input`).
 */
export function jsonValueIssue(value: unknown, at: string): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: at, depth: 0 }];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const { value: item, path, depth } = stack.pop()!;
    if (++nodes > MAX_VALUE_NODES) return `${at} holds more than ${MAX_VALUE_NODES.toLocaleString("en-US")} values`;
    if (depth > MAX_VALUE_DEPTH) return `${at} is nested deeper than ${MAX_VALUE_DEPTH} levels`;
    switch (typeof item) {
      case "string":
        chars += item.length;
        break;
      case "boolean":
        break;
      case "number":
        if (!Number.isFinite(item)) return `${path} must be a finite number`;
        break;
      case "object": {
        if (item === null) break;
        if (Array.isArray(item)) {
          for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], path: `${path}[${i}]`, depth: depth + 1 });
          break;
        }
        const proto = Object.getPrototypeOf(item);
        if (proto !== Object.prototype && proto !== null) return `${path} must be plain JSON`;
        const entries = Object.entries(item);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, child] = entries[i]!;
          chars += key.length;
          if (child !== undefined) stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
        }
        break;
      }
      default:
        return `${path} must be JSON, got ${typeof item}`;
    }
    if (chars > MAX_VALUE_CHARS) return `${at} holds more than ${MAX_VALUE_CHARS.toLocaleString("en-US")} characters`;
  }
  return undefined;
}

/** What June puts in place of what it does not show: a redacted credential, or nesting cut off. */
const WHOLE_PLACEHOLDERS: ReadonlySet<string> = new Set([REDACTED, "[truncated]", "[circular]"]);

/**
 * An edit built from what June showed (the request's `inputValue`, redacted), with what the person did not
 * see taken from `original`: a value left as a placeholder (`"[redacted]"`, `"[truncated]"`) is the
 * original's at that place, and a string left with `[redacted]` in it is the original's when the original
 * reads that way with the hidden parts filled in. A placeholder anywhere else (a hidden part changed, or put
 * where the original has nothing) is refused: it never reaches a tool. A value the person typed in full
 * replaces the original's. `{ issues }` says where.
 */
export function restoreHidden(original: unknown, edit: unknown, at = "input"): { input: unknown } | { issues: string } {
  const problems: string[] = [];
  const restored = restore(original, edit, at, problems, true);
  return problems.length > 0 ? { issues: problems.join("; ") } : { input: restored };
}

function restore(original: unknown, edit: unknown, path: string, problems: string[], present: boolean): unknown {
  if (typeof edit === "string") {
    if (!edit.includes("[redacted") && !WHOLE_PLACEHOLDERS.has(edit)) return edit;
    if (present && WHOLE_PLACEHOLDERS.has(edit)) return original;
    if (present && typeof original === "string" && (original === edit || fillsPlaceholders(edit, original))) return original;
    problems.push(`${path} holds a part June hid from you ("${REDACTED}"): leave it as shown, or type the whole value`);
    return edit;
  }
  if (Array.isArray(edit)) {
    const from = present && Array.isArray(original) ? original : undefined;
    return edit.map((child, i) => restore(from?.[i], child, `${path}[${i}]`, problems, from !== undefined && i < from.length));
  }
  if (typeof edit === "object" && edit !== null) {
    const from = present && typeof original === "object" && original !== null && !Array.isArray(original) ? (original as Record<string, unknown>) : undefined;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(edit)) {
      out[key] = restore(from?.[key], child, `${path}.${key}`, problems, from !== undefined && Object.hasOwn(from, key));
    }
    return out;
  }
  return edit;
}

/** True when `original` reads as `shown` with each `[redacted]` in it standing for some hidden text. */
function fillsPlaceholders(shown: string, original: string): boolean {
  const pieces = shown.split(REDACTED);
  if (pieces.length < 2) return false;
  let from = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i === 0) {
      if (!original.startsWith(piece)) return false;
      from = piece.length;
      continue;
    }
    if (i === pieces.length - 1) return original.length - piece.length > from && original.endsWith(piece);
    const found = original.indexOf(piece, from + 1);
    if (found < 0) return false;
    from = found + piece.length;
  }
  return false;
}

/** What an edited input is checked with: what the step checks the model's own input with. */
export interface EditChecks {
  readonly tools: Readonly<Record<string, AITool<any, any>>>;
  readonly policy?: ToolApprovalPolicy;
  readonly toolGuards: readonly ToolGuardrail[];
  /** The messages the call that asked was sent (what a policy function gets), by tool call id, when known. */
  readonly messages: (toolCallId: string) => ModelMessage[];
}

/** Why an edited input is not taken: the tool's schema (or a hidden field), or a policy or guardrail. */
export type EditVerdict =
  | { readonly kind: "ok"; readonly input: unknown }
  | { readonly kind: "invalid"; readonly issues: string }
  | { readonly kind: "refused"; readonly by: "policy" | "guardrail"; readonly reason: string };

/**
 * Checks a person's edited input as the model's own is checked before its tool may run: hidden fields taken
 * from the original (`restoreHidden`), then the tool's input schema (`schemaIssues`: the AI SDK's schema, zod
 * included, or the JSON Schema), then the tool guardrails (a trip refuses it, with the guardrail's reason),
 * then the step's `toolApproval` (`denied` refuses it, with the policy's reason; any other status lets the
 * person's approval stand).
 */
export async function checkEdit(
  checks: EditChecks,
  call: { toolCallId: string; toolName: string; input: unknown },
  edit: unknown,
): Promise<EditVerdict> {
  const restored = restoreHidden(call.input, edit);
  if ("issues" in restored) return { kind: "invalid", issues: restored.issues };
  const input = restored.input;
  const issues = await schemaIssues(checks.tools[call.toolName], input);
  if (issues !== undefined) return { kind: "invalid", issues };
  const trip = await firstTrip(checks.toolGuards, { toolName: call.toolName, input });
  if (trip) {
    const reason = new GuardrailTrippedError({ guardrail: trip.name, reason: trip.reason, stage: "tool-input", toolName: call.toolName }).message;
    return { kind: "refused", by: "guardrail", reason };
  }
  const rule = ruleFor(checks.policy, call.toolName);
  if (rule !== undefined) {
    const decision = await evaluateRule(rule, typeof checks.policy === "function", {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input,
      messages: checks.messages(call.toolCallId),
      tools: checks.tools,
    });
    if (decision.type === "denied") return { kind: "refused", by: "policy", reason: decision.reason ?? "denied by policy" };
  }
  return { kind: "ok", input };
}
