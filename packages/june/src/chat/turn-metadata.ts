import type { ModelInfo, Usage } from "../runtime/types.js";
import type { Cost } from "../cost/price.js";
import type { ResponderProvenance, TurnMetadata } from "../stores/types.js";
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
 * `model` (`provider`, `modelId`), `usage` (token counts), `cost` (when known) and `finishReason`. Everything else is dropped,
 * so the journal stays small and JSON-safe.
 */
export function turnMetadata(provenance: ResponderProvenance, reported: unknown): TurnMetadata {
  const metadata: TurnMetadata = { responder: { ...provenance } };
  if (!isObject(reported)) return metadata;
  const model = modelInfo(reported.model);
  if (model) metadata.model = model;
  const usage = usageOf(reported.usage);
  if (usage) metadata.usage = usage;
  const cost = costOf(reported.cost);
  if (cost) metadata.cost = cost;
  if (typeof reported.finishReason === "string") metadata.finishReason = reported.finishReason;
  return metadata;
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
