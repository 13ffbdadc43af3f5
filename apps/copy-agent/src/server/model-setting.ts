import type { LanguageModel } from "ai";

/** The one setting that swaps the offline models for a real one. */
export const MODEL_SETTING = "COPY_AGENT_MODEL";

/**
 * The providers, each loaded only when named: `june/sdk/*` re-exports the AI SDK's provider packages, which
 * are optional peers of `june` (`@ai-sdk/openai` ships with this app; `npm install @ai-sdk/anthropic` or
 * `@ai-sdk/google` for the others, or importing them throws a `ProviderNotInstalledError` naming the package).
 */
const PROVIDERS: Record<string, (modelId: string) => Promise<LanguageModel>> = {
  openai: async (modelId) => (await import("june/sdk/openai")).openai(modelId),
  anthropic: async (modelId) => (await import("june/sdk/anthropic")).anthropic(modelId),
  google: async (modelId) => (await import("june/sdk/google")).google(modelId),
};

/**
 * The model `COPY_AGENT_MODEL` names, as `provider:modelId` (`openai:gpt-5-mini`,
 * `anthropic:claude-sonnet-4-5`, `google:gemini-2.5-flash`), or undefined when it is unset: then every agent
 * runs on its offline model. The provider package reads its own key (`OPENAI_API_KEY`, ...) and base URL
 * (`OPENAI_BASE_URL`, ...) from the environment, as it always does.
 */
export async function modelFromSetting(value: string | undefined): Promise<LanguageModel | undefined> {
  if (value === undefined || value.trim() === "") return undefined;
  const colon = value.indexOf(":");
  const provider = colon > 0 ? value.slice(0, colon) : "";
  const modelId = colon > 0 ? value.slice(colon + 1).trim() : "";
  const make = PROVIDERS[provider];
  if (!make || modelId === "") {
    throw new Error(
      `${MODEL_SETTING}=${JSON.stringify(value)}: expected provider:modelId with a provider of ${Object.keys(PROVIDERS).join(", ")}, e.g. openai:gpt-5-mini`,
    );
  }
  return make(modelId);
}
