/**
 * `june/sdk/google`: the AI SDK's `@ai-sdk/google` provider, re-exported. `@ai-sdk/google` is an optional peer dependency of `june`
 * (`npm install @ai-sdk/google`); without it, importing this entry point throws a `ProviderNotInstalledError` naming it.
 */
import { loadProvider } from "./load-provider.js";

const provider = await loadProvider("june/sdk/google", "@ai-sdk/google", () => import("@ai-sdk/google"));

export const { google, createGoogleGenerativeAI, GoogleTranscriptionModel, VERSION } = provider;
export type * from "@ai-sdk/google";
