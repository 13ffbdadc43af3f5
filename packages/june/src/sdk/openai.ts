/**
 * `june/sdk/openai`: the AI SDK's `@ai-sdk/openai` provider, re-exported. `@ai-sdk/openai` is an optional peer dependency of `june`
 * (`npm install @ai-sdk/openai`); without it, importing this entry point throws a `ProviderNotInstalledError` naming it.
 */
import { loadProvider } from "./load-provider.js";

const provider = await loadProvider("june/sdk/openai", "@ai-sdk/openai", () => import("@ai-sdk/openai"));

export const { openai, createOpenAI, VERSION } = provider;
export type * from "@ai-sdk/openai";
