import { describe, expect, it } from "vitest";
import { loadProvider, ProviderNotInstalledError } from "./load-provider.js";

describe("june/sdk/* provider packages as optional peers", () => {
  it("names the package to install when it is missing", async () => {
    const missing = "@ai-sdk/not-installed-here";
    const error = await loadProvider("june/sdk/example", missing, () => import(/* @vite-ignore */ missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderNotInstalledError);
    expect((error as Error).message).toBe(`june/sdk/example needs the AI SDK provider package ${missing}, which is not installed: npm install ${missing}`);
    expect((error as ProviderNotInstalledError).packageName).toBe(missing);
  });

  it("passes another failure through, and loads an installed provider", async () => {
    const boom = new Error("broken provider");
    await expect(loadProvider("june/sdk/x", "@ai-sdk/x", () => Promise.reject(boom))).rejects.toBe(boom);
    const { openai, createOpenAI } = await import("june/sdk/openai");
    expect(typeof openai).toBe("function");
    expect(typeof createOpenAI).toBe("function");
    expect((await import("june/sdk/anthropic")).createAnthropic).toBeTypeOf("function");
    expect((await import("june/sdk/google")).createGoogleGenerativeAI).toBeTypeOf("function");
    expect((await import("june/sdk/openai-compatible")).createOpenAICompatible).toBeTypeOf("function");
  });
});
