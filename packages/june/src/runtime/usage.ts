import type { LanguageModel, LanguageModelUsage } from "ai";
import type { ModelInfo, Usage } from "./types.js";

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/** The AI SDK's usage as June counts it (missing counts are 0; a missing total is input + output). */
export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage?.totalTokens ?? inputTokens + outputTokens };
}

export function addUsage(a: Usage | undefined, b: Usage): Usage {
  return {
    inputTokens: (a?.inputTokens ?? 0) + b.inputTokens,
    outputTokens: (a?.outputTokens ?? 0) + b.outputTokens,
    totalTokens: (a?.totalTokens ?? 0) + b.totalTokens,
  };
}

/** `provider` and `modelId` of a model; a string model id goes through the AI SDK's gateway. */
export function modelInfo(model: LanguageModel): ModelInfo {
  // Frozen: trace nodes hold it as it is, where an unfrozen one is copied into every snapshot.
  if (typeof model === "string") return Object.freeze({ provider: "gateway", modelId: model });
  return Object.freeze({ provider: model.provider, modelId: model.modelId });
}
