import { describe, expect, it } from "vitest";
import { createModel, ollamaBaseUrl, parseModelSpec } from "./models.js";

const info = (model: unknown) => {
  const m = model as { provider: string; modelId: string };
  return { provider: m.provider, modelId: m.modelId };
};

describe("parseModelSpec", () => {
  it("splits at the first colon", () => {
    expect(parseModelSpec("openai:gpt-5-mini")).toEqual({ provider: "openai", modelId: "gpt-5-mini" });
    expect(parseModelSpec("ollama:llama3.2:3b")).toEqual({ provider: "ollama", modelId: "llama3.2:3b" });
    expect(parseModelSpec(" Anthropic:claude-sonnet-4-5 ")).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
  });

  it("refuses a bad format and an unknown provider with one clear message", () => {
    for (const bad of ["gpt-5-mini", ":x", "openai:", ""]) {
      expect(() => parseModelSpec(bad)).toThrow(/expected PROVIDER:ID \(e\.g\. openai:gpt-5-mini\)/);
    }
    expect(() => parseModelSpec("mistral:large")).toThrow(
      'Unknown model provider "mistral" in "mistral:large": use one of openai, anthropic, google, ollama, openai-compatible',
    );
  });
});

describe("createModel", () => {
  it("makes each provider's model with the key from env", async () => {
    const env = {
      OPENAI_API_KEY: "sk-test",
      ANTHROPIC_API_KEY: "sk-ant-test",
      GOOGLE_GENERATIVE_AI_API_KEY: "g-test",
    };
    expect(info(await createModel({ spec: parseModelSpec("openai:gpt-5-mini"), env }))).toEqual({
      provider: "openai.responses",
      modelId: "gpt-5-mini",
    });
    expect(info(await createModel({ spec: parseModelSpec("anthropic:claude-sonnet-4-5"), env })).provider).toMatch(/^anthropic/);
    expect(info(await createModel({ spec: parseModelSpec("google:gemini-2.5-flash"), env })).provider).toMatch(/^google/);
    expect(info(await createModel({ spec: parseModelSpec("ollama:llama3.2"), env: {} }))).toEqual({
      provider: "ollama.chat",
      modelId: "llama3.2",
    });
    expect(
      info(await createModel({ spec: parseModelSpec("openai-compatible:qwen"), env: {}, baseUrl: "http://127.0.0.1:1234/v1" })),
    ).toEqual({ provider: "openai-compatible.chat", modelId: "qwen" });
  });

  it("names the missing key's variable", async () => {
    await expect(createModel({ spec: parseModelSpec("openai:gpt-5-mini"), env: {} })).rejects.toThrow(
      'Model "openai:gpt-5-mini" needs an API key: set OPENAI_API_KEY',
    );
    await expect(createModel({ spec: parseModelSpec("anthropic:x"), env: { ANTHROPIC_API_KEY: "  " } })).rejects.toThrow(
      /set ANTHROPIC_API_KEY/,
    );
    await expect(createModel({ spec: parseModelSpec("google:x"), env: {} })).rejects.toThrow(/set GOOGLE_GENERATIVE_AI_API_KEY/);
  });

  it("needs a base URL for openai-compatible and checks URLs", async () => {
    await expect(createModel({ spec: parseModelSpec("openai-compatible:x"), env: {} })).rejects.toThrow(/pass --base-url URL/);
    await expect(
      createModel({ spec: parseModelSpec("openai:x"), env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "not a url" } }),
    ).rejects.toThrow('OPENAI_BASE_URL is not a URL: "not a url"');
    await expect(createModel({ spec: parseModelSpec("ollama:x"), env: {}, baseUrl: "ftp://host" })).rejects.toThrow(
      /--base-url must be an http\(s\) URL/,
    );
  });
});

describe("ollamaBaseUrl", () => {
  it("prefers OLLAMA_BASE_URL, then OLLAMA_HOST plus /v1, then the default", () => {
    expect(ollamaBaseUrl({})).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaBaseUrl({ OLLAMA_HOST: "10.0.0.2:11434" })).toBe("http://10.0.0.2:11434/v1");
    expect(ollamaBaseUrl({ OLLAMA_HOST: "https://ollama.example/" })).toBe("https://ollama.example/v1");
    expect(ollamaBaseUrl({ OLLAMA_BASE_URL: "http://box:11434/v1/", OLLAMA_HOST: "x:1" })).toBe("http://box:11434/v1");
  });
});
