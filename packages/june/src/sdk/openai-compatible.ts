/**
 * `june/sdk/openai-compatible`: the AI SDK's `@ai-sdk/openai-compatible` provider, re-exported. `@ai-sdk/openai-compatible` is an optional peer dependency of `june`
 * (`npm install @ai-sdk/openai-compatible`); without it, importing this entry point throws a `ProviderNotInstalledError` naming it.
 */
import { loadProvider } from "./load-provider.js";

const provider = await loadProvider("june/sdk/openai-compatible", "@ai-sdk/openai-compatible", () => import("@ai-sdk/openai-compatible"));

export const { createOpenAICompatible, OpenAICompatibleChatLanguageModel, OpenAICompatibleCompletionLanguageModel, OpenAICompatibleEmbeddingModel, OpenAICompatibleImageModel, VERSION } = provider;
export type * from "@ai-sdk/openai-compatible";
