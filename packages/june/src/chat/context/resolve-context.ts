import type { ModelMessage } from "ai";
import type { ContextProvenance } from "../../stores/types.js";
import { valueKind } from "../../errors/value-kind.js";
import { ContextBuildError } from "../errors.js";
import type { ContextBuilder, ContextOptions, TurnRecord } from "../types.js";

/** A builder's output, normalized: the messages and the provenance the `turn-start` entry records. */
export interface ResolvedContext {
  messages: ModelMessage[];
  provenance: ContextProvenance;
  /** A new summary to journal before the turn's `turn-start` (see `ContextResult.summary`). */
  summary?: { throughTurnId: string; text: string };
}

/**
 * Runs a context builder and normalizes what it returns: a `ContextResult`, or a bare `ModelMessage[]`
 * (whose provenance then records the builder as `"custom"` with no turn ids).
 */
export async function resolveContext(
  builder: ContextBuilder,
  history: TurnRecord[],
  options: ContextOptions,
): Promise<ResolvedContext> {
  const label = builder.name || "custom";
  let output: unknown;
  try {
    output = await builder(history, options);
  } catch (error) {
    throw new ContextBuildError(label, error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (Array.isArray(output)) {
    return { messages: checkMessages(label, output), provenance: { builder: "custom", turnIds: [] } };
  }
  if (typeof output !== "object" || output === null) {
    throw new ContextBuildError(label, `expected ModelMessage[] or { name, messages, turnIds }, got ${valueKind(output)}`);
  }
  const result = output as Record<string, unknown>;
  const messages = checkMessages(label, result.messages);
  const name = typeof result.name === "string" && result.name.length > 0 ? result.name : "custom";
  const turnIds = stringsOf(result.turnIds);
  const provenance: ContextProvenance = compact(name, turnIds, history);
  if (typeof result.summaryId === "string") provenance.summaryId = result.summaryId;
  const filesLeftOut = stringsOf(result.filesLeftOut);
  if (filesLeftOut.length > 0) provenance.filesLeftOut = filesLeftOut;
  const summary = summaryOf(label, result.summary);
  if (summary === undefined) return { messages, provenance };
  provenance.summaryId ??= summary.throughTurnId;
  return { messages, provenance, summary };
}

/**
 * Every completed turn so far, in order, is recorded as `completedThrough: <last id>` instead of the whole
 * list, so a long session's `turn-start` entries stay small.
 */
function compact(builder: string, turnIds: string[], history: TurnRecord[]): ContextProvenance {
  if (turnIds.length === 0) return { builder, turnIds };
  let i = 0;
  for (let r = 0; r < history.length; r++) {
    const record = history[r]!;
    if (record.status !== "completed") continue;
    if (record.id !== turnIds[i]) return { builder, turnIds };
    i++;
  }
  if (i !== turnIds.length) return { builder, turnIds };
  return { builder, turnIds: [], completedThrough: turnIds[turnIds.length - 1] };
}

/**
 * The ids of the earlier turns a turn's context sent, oldest first, expanding `completedThrough`.
 *
 * @param provenance the `context` of a `turn-start` entry or a `TurnRecord`
 * @param history the session's turns (`session.turns()`), oldest first
 */
export function contextTurnIds(provenance: ContextProvenance, history: readonly TurnRecord[]): string[] {
  if (provenance.completedThrough === undefined) return provenance.turnIds;
  const ids: string[] = [];
  for (const record of history) {
    if (record.status === "completed") ids.push(record.id);
    if (record.id === provenance.completedThrough) return ids;
  }
  return ids;
}

function summaryOf(label: string, value: unknown): ResolvedContext["summary"] {
  if (value === undefined) return undefined;
  const summary = value as { throughTurnId?: unknown; text?: unknown } | null;
  if (typeof summary !== "object" || summary === null || typeof summary.throughTurnId !== "string" || typeof summary.text !== "string") {
    throw new ContextBuildError(label, `summary must be { throughTurnId: string, text: string }, got ${valueKind(value)}`);
  }
  return { throughTurnId: summary.throughTurnId, text: summary.text };
}

function checkMessages(label: string, messages: unknown): ModelMessage[] {
  if (!Array.isArray(messages)) {
    throw new ContextBuildError(label, `messages must be an array of ModelMessage, got ${valueKind(messages)}`);
  }
  // Indexed (a long session's context has tens of thousands of messages, checked on every turn).
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (typeof message !== "object" || message === null || typeof (message as { role?: unknown }).role !== "string") {
      throw new ContextBuildError(label, `messages[${i}] is not a ModelMessage (no role)`);
    }
  }
  return messages as ModelMessage[];
}

/** The strings of `value` (the builder's `turnIds`), in order; none when it is not an array. */
function stringsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  for (let i = 0; i < value.length; i++) {
    // Something else in it (rare): keep only the strings.
    if (typeof value[i] !== "string") return value.filter((id): id is string => typeof id === "string");
  }
  return value.slice() as string[];
}

