import type { ModelInfo } from "../ai-sdk/call-types.js";
import { catalogEntry } from "./catalog.js";

/** A model's prices in USD per million tokens, as the catalog has them. Cached tokens without their own price cost `input`. */
export interface Price {
  readonly input: number;
  readonly output: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cacheRead?: number;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWrite?: number;
}

/** Your own prices by model id (`"gpt-4o-mini"`, or with its provider: `"openai/gpt-4o-mini"`); they win over the catalog. */
export type Prices = Readonly<Record<string, Price>>;

/** What something cost. `usd` is undefined when a model's price is not known: an unknown cost, never 0. */
export interface Cost {
  readonly usd?: number;
}

/** The cost of nothing yet: 0 USD. */
export const ZERO_COST: Cost = Object.freeze({ usd: 0 });

/** An unknown cost. */
export const UNKNOWN_COST: Cost = Object.freeze({});

const PRICE_KEYS = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** Checks `prices` as `createChat` and `start()` take them: a clear error naming what was wrong. */
export function checkPrices(prices: unknown, where: string): Prices | undefined {
  if (prices === undefined) return undefined;
  if (typeof prices !== "object" || prices === null || Array.isArray(prices)) {
    throw new TypeError(`june: ${where} prices must be an object of model id → { input, output, cacheRead?, cacheWrite? } (USD per million tokens)`);
  }
  for (const [modelId, price] of Object.entries(prices)) {
    if (typeof price !== "object" || price === null) throw new TypeError(`june: ${where} prices["${modelId}"] must be { input, output, cacheRead?, cacheWrite? }`);
    for (const key of PRICE_KEYS) {
      const value = (price as Record<string, unknown>)[key];
      const required = key === "input" || key === "output";
      if (value === undefined && !required) continue;
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new TypeError(`june: ${where} prices["${modelId}"].${key} must be a number of USD per million tokens, 0 or more (got ${String(value)})`);
      }
    }
    for (const key of Object.keys(price)) {
      if (!(PRICE_KEYS as readonly string[]).includes(key)) throw new TypeError(`june: ${where} prices["${modelId}"] has an unknown key "${key}" (known: ${PRICE_KEYS.join(", ")})`);
    }
  }
  return prices as Prices;
}

/** A model's price: yours (`prices`, by model id or `provider/modelId`) first, else the catalog's; undefined when neither knows it. */
export async function priceOf(model: ModelInfo, prices?: Prices): Promise<Price | undefined> {
  const own = prices && ownPrice(model, prices);
  if (own) return own;
  return (await catalogEntry(model))?.price;
}

function ownPrice(model: ModelInfo, prices: Prices): Price | undefined {
  if (Object.hasOwn(prices, model.modelId)) return prices[model.modelId];
  const provider = model.provider.split(".")[0]!;
  const full = `${provider}/${model.modelId}`;
  return Object.hasOwn(prices, full) ? prices[full] : undefined;
}

/** The token counts a cost needs, from the AI SDK's usage (its `inputTokenDetails`, or the older `cachedInputTokens`). */
interface ReportedUsage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly cachedInputTokens?: number | undefined;
  readonly inputTokenDetails?: {
    readonly noCacheTokens?: number | undefined;
    readonly cacheReadTokens?: number | undefined;
    readonly cacheWriteTokens?: number | undefined;
  };
}

const PER_MILLION = 1_000_000;

/**
 * What one model call cost: input tokens at `input`, those read from the cache at `cacheRead`, those written
 * to it at `cacheWrite` (each at `input` when the price has none), output tokens (reasoning included) at
 * `output`. Unknown when the price is.
 */
export function costOf(usage: ReportedUsage | undefined, price: Price | undefined): Cost {
  if (!price) return UNKNOWN_COST;
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const details = usage?.inputTokenDetails;
  const cacheRead = details?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0;
  const cacheWrite = details?.cacheWriteTokens ?? 0;
  const plain = details?.noCacheTokens ?? Math.max(0, input - cacheRead - cacheWrite);
  const usd = plain * price.input + cacheRead * (price.cacheRead ?? price.input) + cacheWrite * (price.cacheWrite ?? price.input) + output * price.output;
  return { usd: usd / PER_MILLION };
}

/** Two costs added up: unknown when either is. */
export function addCost(a: Cost | undefined, b: Cost): Cost {
  if (a === undefined) return b;
  if (a.usd === undefined || b.usd === undefined) return UNKNOWN_COST;
  return { usd: a.usd + b.usd };
}

/** A cost as people read it: `$0.0012`, or `cost unknown`. */
export function formatCost(cost: Cost | undefined): string {
  if (cost?.usd === undefined) return "cost unknown";
  const usd = cost.usd;
  if (usd === 0) return "$0";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "")}`;
}
