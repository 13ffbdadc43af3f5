import type { LanguageModelUsage, ModelMessage } from "ai";
import type { Usage } from "../ai-sdk/call-types.js";
import type { TokenCount } from "./token-counter.js";

/** A call's usage as June counts it, and whether any of it is June's own count (the provider reported none). */
export interface CountedUsage {
  readonly usage: Usage;
  /** Some count is June's own: the call's cost is unknown. */
  readonly counted: boolean;
}

/** What a call sent (its system prompt and messages) and what it received so far (text, tool calls). */
export interface CallTraffic {
  readonly system: string | undefined;
  readonly messages: readonly ModelMessage[];
  readonly received: string;
}

/**
 * A call's usage: the provider's counts where it reported them (finite numbers, 0 or more), June's own count
 * of what was sent (`input`) and received (`output`) where it did not (missing or NaN), so a token budget
 * never takes an unreported call for a free one. `reported` undefined: the call ended before the provider
 * reported anything (canceled, interrupted, failed mid-stream), every count is June's. `measure` is asked only
 * when a count is missing: a call whose provider reported both builds no counter and reads nothing it sent.
 */
export function countedUsage(reported: LanguageModelUsage | undefined, measure: () => { traffic: CallTraffic; count: TokenCount }): CountedUsage {
  const input = known(reported?.inputTokens);
  const output = known(reported?.outputTokens);
  const total = known(reported?.totalTokens);
  if (input !== undefined && output !== undefined) return { usage: { inputTokens: input, outputTokens: output, totalTokens: total ?? input + output }, counted: false };
  const { traffic, count } = measure();
  const inputTokens = input ?? sentTokens(traffic, count);
  const outputTokens = output ?? (traffic.received === "" ? 0 : count(traffic.received));
  return { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, counted: true };
}

function known(n: number | undefined): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** June's count of a prompt: its text, tool calls and tool results, plus a few tokens a message (its role and framing). */
function sentTokens({ system, messages }: CallTraffic, count: TokenCount): number {
  const PER_MESSAGE = 4;
  let tokens = system ? count(system) + PER_MESSAGE : 0;
  for (const message of messages) {
    tokens += PER_MESSAGE;
    if (typeof message.content === "string") {
      tokens += count(message.content);
      continue;
    }
    for (const part of message.content) {
      const text = partText(part as { type: string; text?: unknown; input?: unknown; output?: unknown });
      if (text !== "") tokens += count(text);
    }
  }
  return tokens;
}

function partText(part: { type: string; text?: unknown; input?: unknown; output?: unknown }): string {
  if (typeof part.text === "string") return part.text;
  if (part.type === "tool-call") return safeJson(part.input);
  if (part.type === "tool-result") return safeJson(part.output);
  return "";
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
