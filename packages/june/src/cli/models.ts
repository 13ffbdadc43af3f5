import type { LanguageModel } from "ai";
import { CliConfigError, CliUsageError } from "./errors.js";

/** The providers `--model PROVIDER:ID` knows. */
export const MODEL_PROVIDERS = ["openai", "anthropic", "google", "ollama", "openai-compatible"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A parsed `PROVIDER:ID`. */
export interface ModelSpec {
  provider: ModelProvider;
  /** Everything after the first colon: `ollama:llama3.2:3b` has the id `llama3.2:3b`. */
  modelId: string;
}

const EXAMPLE = "e.g. openai:gpt-5-mini";

/** Parses `PROVIDER:ID`; a `CliConfigError` names what is wrong. */
export function parseModelSpec(text: string): ModelSpec {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(":");
  if (colon <= 0 || colon === trimmed.length - 1) {
    throw new CliConfigError(`Bad model "${text}": expected PROVIDER:ID (${EXAMPLE})`);
  }
  const provider = trimmed.slice(0, colon).toLowerCase();
  const modelId = trimmed.slice(colon + 1);
  if (!isProvider(provider)) {
    throw new CliConfigError(
      `Unknown model provider "${provider}" in "${text}": use one of ${MODEL_PROVIDERS.join(", ")}`,
    );
  }
  return { provider, modelId };
}

function isProvider(name: string): name is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(name);
}

/** Where a provider's key and base URL come from. */
interface ProviderEnv {
  key?: string;
  baseUrl?: string;
}

/** The environment variables each provider reads; shown in `--help`. */
export const PROVIDER_ENV: Record<ModelProvider, ProviderEnv> = {
  openai: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
  anthropic: { key: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" },
  google: { key: "GOOGLE_GENERATIVE_AI_API_KEY", baseUrl: "GOOGLE_GENERATIVE_AI_BASE_URL" },
  ollama: { baseUrl: "OLLAMA_BASE_URL" },
  "openai-compatible": { key: "OPENAI_COMPATIBLE_API_KEY", baseUrl: "OPENAI_COMPATIBLE_BASE_URL" },
};

export interface ChosenModelOptions {
  /** `--model`. */
  model?: string;
  /** `--base-url`. */
  baseUrl?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The `PROVIDER:ID` a command runs on: `--model`, else `JUNE_MODEL`, else none. `--base-url` with neither
 * is a `CliUsageError`: it names no model.
 */
export function chosenModelSpec(options: ChosenModelOptions): string | undefined {
  const spec = options.model ?? nonEmpty(options.env.JUNE_MODEL);
  if (spec === undefined && options.baseUrl !== undefined) {
    throw new CliUsageError("--base-url applies to a model: pass --model PROVIDER:ID too (or set JUNE_MODEL)");
  }
  return spec;
}

export interface CreateModelOptions {
  spec: ModelSpec;
  /** The environment to read keys and base URLs from. */
  env: Readonly<Record<string, string | undefined>>;
  /** `--base-url`: wins over the environment. */
  baseUrl?: string;
}

/**
 * Imports the provider package a `PROVIDER:ID` names (each is imported only when a model names it: they
 * are most of what a CLI start-up would load otherwise). Only imports: nothing is checked or created, so
 * a command can load it early (before a user's module goes through the module hooks) and fail later.
 */
export function loadProvider(provider: ModelProvider): Promise<unknown> {
  switch (provider) {
    case "openai":
      return import("../sdk/openai.js");
    case "anthropic":
      return import("../sdk/anthropic.js");
    case "google":
      return import("../sdk/google.js");
    case "ollama":
    case "openai-compatible":
      return import("../sdk/openai-compatible.js");
    default: {
      const unreachable: never = provider;
      throw new CliConfigError(`Unknown model provider "${String(unreachable)}"`);
    }
  }
}

/**
 * Imports the provider package of a `PROVIDER:ID` text if it names a known provider, and nothing
 * otherwise (a bad spec is reported where the model is made). Never throws.
 */
export async function preloadProvider(text: string | undefined): Promise<void> {
  if (text === undefined) return;
  try {
    await loadProvider(parseModelSpec(text).provider);
  } catch {
    // Reported when the model is made.
  }
}

/**
 * Makes the AI SDK model a `ModelSpec` names, with keys and base URLs from `env` (never from anywhere
 * else). A missing key or base URL is a `CliConfigError` naming the variable to set. The provider's
 * package is imported here, after the key and URLs are checked.
 */
export async function createModel(options: CreateModelOptions): Promise<LanguageModel> {
  const { spec, env } = options;
  const url = modelBaseUrl(options);
  switch (spec.provider) {
    case "openai": {
      const apiKey = requireKey(env, "OPENAI_API_KEY", spec);
      const { createOpenAI } = await import("../sdk/openai.js");
      return createOpenAI({ apiKey, baseURL: url })(spec.modelId);
    }
    case "anthropic": {
      const apiKey = requireKey(env, "ANTHROPIC_API_KEY", spec);
      const { createAnthropic } = await import("../sdk/anthropic.js");
      return createAnthropic({ apiKey, baseURL: url })(spec.modelId);
    }
    case "google": {
      const apiKey = requireKey(env, "GOOGLE_GENERATIVE_AI_API_KEY", spec);
      const { createGoogleGenerativeAI } = await import("../sdk/google.js");
      return createGoogleGenerativeAI({ apiKey, baseURL: url })(spec.modelId);
    }
    case "ollama": {
      const { createOpenAICompatible } = await import("../sdk/openai-compatible.js");
      return createOpenAICompatible({ name: "ollama", baseURL: url! })(spec.modelId);
    }
    case "openai-compatible": {
      if (!url) {
        throw new CliConfigError(
          `Model "openai-compatible:${spec.modelId}" needs a server: pass --base-url URL (e.g. http://127.0.0.1:1234/v1) or set OPENAI_COMPATIBLE_BASE_URL`,
          { envVar: "OPENAI_COMPATIBLE_BASE_URL" },
        );
      }
      const apiKey = nonEmpty(env.OPENAI_COMPATIBLE_API_KEY);
      const { createOpenAICompatible } = await import("../sdk/openai-compatible.js");
      return createOpenAICompatible({ name: "openai-compatible", baseURL: url, ...(apiKey ? { apiKey } : {}) })(
        spec.modelId,
      );
    }
    default: {
      const unreachable: never = spec.provider;
      throw new CliConfigError(`Unknown model provider "${String(unreachable)}"`);
    }
  }
}

/** The provider's default base URL (none for `openai-compatible`, which needs one). */
const DEFAULT_BASE_URLS: Record<ModelProvider, string | undefined> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  ollama: "http://127.0.0.1:11434/v1",
  "openai-compatible": undefined,
};

/**
 * The base URL a model's requests go to: `--base-url`, else the provider's variable (for Ollama
 * `OLLAMA_BASE_URL` or `OLLAMA_HOST`), else the provider's default; `undefined` for `openai-compatible`
 * with none. A malformed URL is a `CliConfigError` naming where it came from.
 */
export function modelBaseUrl(options: CreateModelOptions): string | undefined {
  const { spec, env } = options;
  if (options.baseUrl) return checkUrl(options.baseUrl, "--base-url");
  if (spec.provider === "ollama") return ollamaBaseUrl(env);
  const variable = PROVIDER_ENV[spec.provider].baseUrl;
  return (variable ? optionalUrl(env, variable) : undefined) ?? DEFAULT_BASE_URLS[spec.provider];
}

/**
 * The OpenAI-compatible endpoint of a local Ollama: `OLLAMA_BASE_URL` as given, else `OLLAMA_HOST`
 * (`host:port` or a URL) plus `/v1`, else `http://127.0.0.1:11434/v1`.
 */
export function ollamaBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const base = optionalUrl(env, "OLLAMA_BASE_URL");
  if (base) return base;
  const host = nonEmpty(env.OLLAMA_HOST);
  if (!host) return "http://127.0.0.1:11434/v1";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
  const url = checkUrl(withScheme, "OLLAMA_HOST");
  return `${url.replace(/\/+$/, "")}/v1`;
}

function requireKey(env: Readonly<Record<string, string | undefined>>, name: string, spec: ModelSpec): string {
  const key = nonEmpty(env[name]);
  if (!key) {
    throw new CliConfigError(`Model "${spec.provider}:${spec.modelId}" needs an API key: set ${name}`, { envVar: name });
  }
  return key;
}

function optionalUrl(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  return value === undefined ? undefined : checkUrl(value, name);
}

function checkUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliConfigError(`${source} is not a URL: "${value}"`, source.startsWith("-") ? {} : { envVar: source });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliConfigError(`${source} must be an http(s) URL: "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
