import { createRequire } from "node:module";
import type { LanguageModel } from "ai";
import { estimateTokens } from "./estimate-tokens.js";

/** Counts a text's tokens. */
export type TokenCount = (text: string) => number;

/** OpenAI's encodings by model family: o200k for gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and the o-series; cl100k for gpt-4 and gpt-3.5. */
function openAiEncoding(modelId: string): "o200k_base" | "cl100k_base" | undefined {
  const id = modelId.toLowerCase();
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(id)) return "o200k_base";
  if (/^(gpt-4|gpt-3\.5)/.test(id)) return "cl100k_base";
  return undefined;
}

const encodings = new Map<string, TokenCount>();

/**
 * A model's token counter for `tokenBudget({ count })`: OpenAI's own tokenizer (`gpt-tokenizer`'s BPE, loaded on
 * first count: about 2 MB) for an OpenAI model it knows, else `estimateTokens` (one token per four characters).
 *
 * @example
 * createChat({ model: openai("gpt-4o-mini"), context: tokenBudget({ maxTokens: 8_000, count: tokenCounter(openai("gpt-4o-mini")) }) });
 */
export function tokenCounter(model: LanguageModel): TokenCount {
  // A string model id goes through the AI SDK's gateway (as `modelInfo` has it; cost/ sits below runtime/).
  const info = typeof model === "string" ? { provider: "gateway", modelId: model } : { provider: model.provider, modelId: model.modelId };
  const provider = info.provider.split(".")[0]!.toLowerCase();
  const modelId = provider === "gateway" && info.modelId.startsWith("openai/") ? info.modelId.slice("openai/".length) : info.modelId;
  const openAi = provider === "openai" || provider === "azure" || (provider === "gateway" && modelId !== info.modelId);
  const encoding = openAi ? openAiEncoding(modelId) : undefined;
  if (!encoding) return estimateTokens;
  return (text) => {
    let count = encodings.get(encoding);
    if (!count) {
      // Synchronous and lazy: a context builder counts synchronously, and a chat that never counts never loads it.
      const module = createRequire(import.meta.url)(`gpt-tokenizer/encoding/${encoding}`) as { countTokens(text: string): number };
      count = (t) => module.countTokens(t);
      encodings.set(encoding, count);
    }
    return count(text);
  };
}
