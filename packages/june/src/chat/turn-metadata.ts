import type { ModelInfo, Usage } from "../runtime/types.js";
import type { Cost } from "../cost/price.js";
import type { AgentProvenance, HandoffRecord, ResponderProvenance, TurnMetadata } from "../stores/types.js";
import type { Responder } from "./types.js";

/** The provenance a responder records on every turn it answers: `kind` (default `"custom"`), `id?`, `version?`. */
export function responderProvenance(responder: Responder): ResponderProvenance {
  const provenance: ResponderProvenance = { kind: responder.kind ?? "custom" };
  if (responder.id !== undefined) provenance.id = responder.id;
  if (responder.version !== undefined) provenance.version = responder.version;
  return provenance;
}

/**
 * A completed turn's metadata: the responder's provenance and, from what the responder reported, only
 * `agent` (`id`, `version`), `handoff` (`from`, `to`, `reason`), `model` (`provider`, `modelId`), `usage`
 * (token counts), `cost` (when known) and `finishReason`. Everything else is dropped,
 * so the journal stays small and JSON-safe.
 */
export function turnMetadata(provenance: ResponderProvenance, reported: unknown): TurnMetadata {
  const metadata: TurnMetadata = { responder: { ...provenance } };
  if (!isObject(reported)) return metadata;
  const agent = agentOf(reported.agent);
  if (agent) metadata.agent = agent;
  const handoff = handoffOf(reported.handoff);
  if (handoff) metadata.handoff = handoff;
  const model = modelInfo(reported.model);
  if (model) metadata.model = model;
  const usage = usageOf(reported.usage);
  if (usage) metadata.usage = usage;
  const cost = costOf(reported.cost);
  if (cost) metadata.cost = cost;
  if (typeof reported.finishReason === "string") metadata.finishReason = reported.finishReason;
  return metadata;
}

function agentOf(value: unknown): AgentProvenance | undefined {
  if (!isObject(value) || typeof value.id !== "string") return undefined;
  return typeof value.version === "string" ? { id: value.id, version: value.version } : { id: value.id };
}

function handoffOf(value: unknown): HandoffRecord | HandoffRecord[] | undefined {
  if (Array.isArray(value)) {
    const records = value.map(handoffRecord);
    return records.length > 0 && records.every((record) => record !== undefined) ? (records as HandoffRecord[]) : undefined;
  }
  return handoffRecord(value);
}

function handoffRecord(value: unknown): HandoffRecord | undefined {
  if (!isObject(value) || typeof value.from !== "string" || typeof value.to !== "string") return undefined;
  return typeof value.reason === "string" ? { from: value.from, to: value.to, reason: value.reason } : { from: value.from, to: value.to };
}

/**
 * The agent that holds the conversation after the turn `turnId` (and the turns before it on its branch): the
 * latest of them that names one, by its handoff's `to`, else the agent that answered it.
 */
export function conversationAgent(turnId: string | undefined, record: (turnId: string) => { parentTurnId?: string; metadata?: TurnMetadata } | undefined): string | undefined {
  for (let turn = turnId === undefined ? undefined : record(turnId); turn; turn = turn.parentTurnId === undefined ? undefined : record(turn.parentTurnId)) {
    const handoff = turn.metadata?.handoff;
    if (handoff) return (Array.isArray(handoff) ? handoff.at(-1)! : handoff).to;
    if (turn.metadata?.agent) return turn.metadata.agent.id;
  }
  return undefined;
}

function modelInfo(value: unknown): ModelInfo | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.provider !== "string" || typeof value.modelId !== "string") return undefined;
  return { provider: value.provider, modelId: value.modelId };
}

const USAGE_KEYS = ["inputTokens", "outputTokens", "totalTokens"] as const;

function usageOf(value: unknown): Partial<Usage> | undefined {
  if (!isObject(value)) return undefined;
  const usage: Partial<Usage> = {};
  let any = false;
  for (const key of USAGE_KEYS) {
    const n = value[key];
    if (typeof n === "number" && Number.isFinite(n)) {
      usage[key] = n;
      any = true;
    }
  }
  return any ? usage : undefined;
}

/** A reported cost: `{ usd }` with a finite number of USD 0 or more. An unknown cost is left out of the metadata. */
function costOf(value: unknown): Cost | undefined {
  if (!isObject(value)) return undefined;
  const usd = value.usd;
  return typeof usd === "number" && Number.isFinite(usd) && usd >= 0 ? { usd } : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
