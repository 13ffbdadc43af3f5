/**
 * `june/sdk/anthropic`: the AI SDK's `@ai-sdk/anthropic` provider, re-exported. `@ai-sdk/anthropic` is an optional peer dependency of `june`
 * (`npm install @ai-sdk/anthropic`); without it, importing this entry point throws a `ProviderNotInstalledError` naming it.
 */
import { loadProvider } from "./load-provider.js";

const provider = await loadProvider("june/sdk/anthropic", "@ai-sdk/anthropic", () => import("@ai-sdk/anthropic"));

export const { anthropic, createAnthropic, forwardAnthropicContainerIdFromLastStep, VERSION } = provider;
export type * from "@ai-sdk/anthropic";
