import { connect } from "node:net";
import { APICallError, LoadAPIKeyError } from "ai";
import { CliConfigError } from "./errors.js";
import { modelBaseUrl, PROVIDER_ENV, type CreateModelOptions, type ModelProvider, type ModelSpec } from "./models.js";

/**
 * A provider's failure said in words a person can act on: a refused key names the variable to fix, a
 * refused connection says what to start. `APICallError.isInstance` checks the AI SDK's own marker, so errors
 * from another copy of the package count too; a `RetryError` is followed through its `lastError`.
 */

interface ApiCallFailure {
  url?: string;
  statusCode?: number;
  responseBody?: string;
  message: string;
  /** The network error under a request that never got an answer (`ECONNREFUSED`, `ENOTFOUND`, ...). */
  networkCode?: string;
}

/** The provider request behind an error: the error itself, a `RetryError`'s last error, or a cause. */
function apiCallFailure(error: unknown, depth = 0): ApiCallFailure | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const e = error as { name?: unknown; url?: unknown; statusCode?: unknown; responseBody?: unknown; message?: unknown; lastError?: unknown; cause?: unknown };
  if (APICallError.isInstance(error)) {
    return {
      url: typeof e.url === "string" ? e.url : undefined,
      statusCode: typeof e.statusCode === "number" ? e.statusCode : undefined,
      responseBody: typeof e.responseBody === "string" ? e.responseBody : undefined,
      message: typeof e.message === "string" ? e.message : "",
      networkCode: networkCodeOf(e.cause),
    };
  }
  return apiCallFailure(e.lastError, depth + 1) ?? apiCallFailure(e.cause, depth + 1);
}

function networkCodeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  return networkCodeOf((error as { cause?: unknown }).cause, depth + 1);
}

/** The provider a request went to: the `--model` one, else guessed from its host. */
function providerOf(url: string | undefined, spec: ModelSpec | undefined): ModelProvider | undefined {
  if (spec) return spec.provider;
  if (!url) return undefined;
  const host = safeUrl(url)?.host ?? "";
  if (host.endsWith("anthropic.com")) return "anthropic";
  if (host.endsWith("googleapis.com")) return "google";
  if (host.endsWith("openai.com")) return "openai";
  if (host.endsWith(":11434")) return "ollama";
  return undefined;
}

const PROVIDER_NAMES: Record<ModelProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  ollama: "Ollama",
  "openai-compatible": "The server",
};

/** True when the provider said the key is missing, wrong or not allowed. */
function isKeyRefusal(failure: ApiCallFailure): boolean {
  if (failure.statusCode === 401 || failure.statusCode === 403) return true;
  return failure.statusCode === 400 && /API_KEY_INVALID|API key not valid/i.test(failure.responseBody ?? failure.message);
}

/** What to start, or where to point, when nothing answers at `origin`. */
function startHint(provider: ModelProvider | undefined, origin: string): string {
  if (provider === "ollama") return `is Ollama running? Start it with \`ollama serve\` (or point OLLAMA_HOST at it)`;
  const variable = provider ? PROVIDER_ENV[provider].baseUrl : undefined;
  return `start the server at ${origin}, or pass --base-url${variable ? ` (or set ${variable})` : ""}`;
}

/**
 * A provider failure said for a person, or `undefined` when the error is not one it knows (the caller
 * then shows the error as it is). `spec` is the `--model` the chat runs on, when there is one.
 */
export function explainProviderError(error: unknown, options: { spec?: ModelSpec } = {}): string | undefined {
  const missingKey = missingKeyLine(error, options.spec);
  if (missingKey !== undefined) return missingKey;
  const failure = apiCallFailure(error);
  if (!failure) return undefined;
  const provider = providerOf(failure.url, options.spec);
  const name = provider ? PROVIDER_NAMES[provider] : "The provider";
  const origin = failure.url ? (safeUrl(failure.url)?.origin ?? failure.url) : "the provider";
  if (failure.statusCode === undefined && failure.networkCode !== undefined) {
    const what = failure.networkCode === "ECONNREFUSED" ? "connection refused" : failure.networkCode;
    return `Could not reach ${origin} (${what}): ${startHint(provider, origin)}`;
  }
  if (failure.statusCode !== undefined && isKeyRefusal(failure)) {
    const variable = provider ? PROVIDER_ENV[provider].key : undefined;
    const fix = variable ? `check ${variable}` : "check the API key";
    return `${name} refused the API key (${failure.statusCode}: ${failure.message}): ${fix}`;
  }
  if (failure.statusCode === 404) {
    return `${name} answered 404 at ${failure.url ?? origin} (${failure.message}): check the model id and the base URL`;
  }
  if (failure.statusCode === 429) return `${name} is rate-limiting requests (429: ${failure.message}): wait a moment and try again`;
  return undefined;
}

/**
 * A model made with no key (`openai("gpt-5-mini")` and no `OPENAI_API_KEY`): the provider package reads the key
 * from its environment variable when the model is called, and throws `LoadAPIKeyError` naming it. One line saying
 * so, and the offline way, instead of the provider's message (which the output gate would mask: it reads like a
 * `key: value`).
 */
function missingKeyLine(error: unknown, spec: ModelSpec | undefined): string | undefined {
  const missing = missingKeyError(error);
  if (missing === undefined) return undefined;
  const variable = /\b([A-Z][A-Z0-9_]*_API_KEY)\b/.exec(missing.message)?.[1] ?? (spec ? PROVIDER_ENV[spec.provider].key : undefined);
  const where = variable ? `the environment variable ${variable}` : "its environment variable";
  return `no API key: the model's provider reads it from ${where} (or the apiKey option of its create function); set it, or run offline on scriptedModel from june/testing`;
}

/** The `LoadAPIKeyError` behind an error (itself, a run's or a retry's cause), by marker or by name. */
function missingKeyError(error: unknown, depth = 0): { message: string } | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const e = error as { name?: unknown; message?: unknown; lastError?: unknown; cause?: unknown };
  // By name too: an error that crossed a boundary as its name and message (a journaled failure) keeps no marker.
  if (LoadAPIKeyError.isInstance(error) || e.name === "AI_LoadAPIKeyError") return { message: String(e.message ?? "") };
  return missingKeyError(e.lastError, depth + 1) ?? missingKeyError(e.cause, depth + 1);
}

/** A loopback host: a server that should answer at once if it runs at all. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || hostname === "[::1]" || /^127\./.test(hostname);
}

/**
 * Before a session is made: when the model's server is on this machine (a local Ollama, an
 * OpenAI-compatible server, a fake), checks that something listens there, so a server that is not
 * running is one line right away instead of a turn that retries for seconds. A remote host is not
 * checked (its failures are explained after the turn). Throws a `CliConfigError` saying what to start.
 */
export async function checkLocalModelServer(options: CreateModelOptions & { timeoutMs?: number }): Promise<void> {
  const base = modelBaseUrl(options);
  const url = base ? safeUrl(base) : undefined;
  if (!url || !isLoopback(url.hostname)) return;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const code = await new Promise<string | undefined>((resolve) => {
    const socket = connect({ host, port });
    const done = (result: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), options.timeoutMs ?? 1_500);
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? "ECONNREFUSED"));
  });
  if (code === undefined) return;
  const what = code === "ECONNREFUSED" ? "connection refused" : code;
  const variable = options.spec.provider === "ollama" ? "OLLAMA_HOST" : PROVIDER_ENV[options.spec.provider].baseUrl;
  throw new CliConfigError(
    `Could not reach ${url.origin} for ${options.spec.provider}:${options.spec.modelId} (${what}): ${startHint(options.spec.provider, url.origin)}`,
    variable ? { envVar: variable } : {},
  );
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
