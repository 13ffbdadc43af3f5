import type { IncomingMessage, ServerResponse } from "node:http";
import {
  failsAtStart,
  headerOf,
  listen,
  messageOf,
  pause,
  pickEntry,
  planReply,
  readJsonBody,
  sendJson,
  startSse,
  trackRequest,
  writeSse,
  type FakeModelEntry,
  type FakeModelRequest,
  type FakeModelScript,
  type ReplyPlan,
} from "./fake-provider-http.js";
import { googleFiles } from "./fake-provider-files.js";

/** The Gemini endpoint a request used. */
export type FakeGoogleApi = "streamGenerateContent" | "generateContent";

/**
 * One request the server received (`path` e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent`;
 * `headers["x-goog-api-key"]` the key it sent).
 */
export type FakeGoogleRequest = FakeModelRequest<FakeGoogleApi> & {
  /** The model named in the path (`gemini-2.5-flash`). */
  model: string;
};

/**
 * One entry per request, or a function of it. `finishReason` is Gemini's (default `STOP`, which Gemini
 * sends with function calls too); an `error` answers with a Google error body, its `type` the status
 * name (default from the HTTP status: `UNAUTHENTICATED` for 401, ...).
 */
export type FakeGoogleScript = FakeModelScript<FakeGoogleApi>;

export interface FakeGoogleServerOptions {
  /** One entry per model request (in order), or a function of the request. */
  script: FakeGoogleScript;
  /**
   * The API key the server accepts. When set, a request with another `x-goog-api-key` gets what Gemini
   * answers a bad key with (400 `INVALID_ARGUMENT`, "API key not valid…", reason `API_KEY_INVALID`) and
   * takes no script entry (the script's `index` counts the requests that passed).
   */
  apiKey?: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface FakeGoogleServer {
  /**
   * The base URL, ending in `/v1beta`: pass it as `baseURL` to `createGoogleGenerativeAI` or as
   * `GOOGLE_GENERATIVE_AI_BASE_URL`.
   */
  readonly url: string;
  /** Every model request received, oldest first (rejected keys included). */
  readonly requests: readonly FakeGoogleRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const ROUTE = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * A real HTTP server on 127.0.0.1 that speaks the Gemini API: `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`
 * (Server-Sent Events of `GenerateContentResponse` chunks) and `:generateContent`. Scripted like
 * `createFakeOpenAIServer`: text deltas with delays, `functionCall` parts, error statuses and a mid-stream
 * error chunk; every request body is recorded.
 *
 * @example
 * const server = await createFakeGoogleServer({ script: ["Hello!"] });
 * const model = createGoogleGenerativeAI({ baseURL: server.url, apiKey: "test" })("gemini-2.5-flash");
 * // ... streamText({ model, prompt: "Hi" }); server.requests[0].body.contents
 * await server.close();
 */
export async function createFakeGoogleServer(options: FakeGoogleServerOptions): Promise<FakeGoogleServer> {
  const requests: FakeGoogleRequest[] = [];
  let scripted = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = decodeURIComponent(url.pathname).replace(/\/+$/, "");
    const route = ROUTE.exec(path);
    if (req.method !== "POST" || !route) {
      return sendError(res, 404, { status: "NOT_FOUND", message: `fake Google server: no route for ${req.method} ${path}` });
    }
    const model = route[1]!;
    const api = route[2] as FakeGoogleApi;
    const parsed = await readJsonBody(req);
    if (!parsed.ok) return sendError(res, 400, { message: "fake Google server: the body is not JSON" });
    const body = parsed.body;
    const tracked = trackRequest(requests as FakeModelRequest<FakeGoogleApi>[], req, res, { api, path, body, files: googleFiles(body) });
    (tracked.record as FakeGoogleRequest).model = model;
    if (options.apiKey !== undefined && headerOf(req, "x-goog-api-key") !== options.apiKey) {
      return sendJson(res, 400, {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
        },
      });
    }
    let entry: FakeModelEntry;
    try {
      entry = await pickEntry(options.script, { index: scripted++, api, body }, "fake Google server");
    } catch (error) {
      return sendError(res, 400, { message: messageOf(error) });
    }
    if (failsAtStart(entry)) {
      return sendError(res, entry.error.status ?? 500, { status: entry.error.type, message: entry.error.message });
    }
    const plan = planReply(entry, tracked.record.index, (i, n) => `call_fake_${i}_${n}`);
    if (api === "streamGenerateContent") await streamContent(res, plan, model, tracked.signal);
    else sendJson(res, 200, chunk(plan, model, [...textParts(plan.text), ...callParts(plan)], true));
  }

  const server = await listen({
    host: options.host,
    port: options.port,
    handle,
    onCrash: (res, error) => sendError(res, 500, { message: `fake Google server: ${messageOf(error)}` }),
  });
  return { url: `${server.origin}/v1beta`, requests, close: server.close };
}

/** Google's status name for an HTTP status. */
function statusName(status: number): string {
  if (status === 400) return "INVALID_ARGUMENT";
  if (status === 401) return "UNAUTHENTICATED";
  if (status === 403) return "PERMISSION_DENIED";
  if (status === 404) return "NOT_FOUND";
  if (status === 429) return "RESOURCE_EXHAUSTED";
  if (status === 503) return "UNAVAILABLE";
  if (status === 504) return "DEADLINE_EXCEEDED";
  return "INTERNAL";
}

function textParts(text: string): unknown[] {
  return text.length > 0 ? [{ text }] : [];
}

function callParts(plan: ReplyPlan): unknown[] {
  return plan.toolCalls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.input } }));
}

/** One `GenerateContentResponse`; the last one carries the finish reason, and every one the usage so far. */
function chunk(plan: ReplyPlan, model: string, parts: unknown[], last: boolean): unknown {
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        index: 0,
        ...(last ? { finishReason: plan.finishReason ?? "STOP" } : {}),
      },
    ],
    usageMetadata: {
      promptTokenCount: plan.inputTokens,
      ...(last ? { candidatesTokenCount: plan.outputTokens, totalTokenCount: plan.inputTokens + plan.outputTokens } : {}),
    },
    modelVersion: model,
    responseId: `resp_fake_${plan.index}`,
  };
}

async function streamContent(res: ServerResponse, plan: ReplyPlan, model: string, signal: AbortSignal): Promise<void> {
  startSse(res);
  const calls = callParts(plan);
  const deltas = plan.deltas;
  for (const [n, delta] of deltas.entries()) {
    if (!(await pause(delta.delay, signal))) return;
    const last = n === deltas.length - 1 && calls.length === 0 && !plan.error;
    writeSse(res, chunk(plan, model, textParts(delta.text), last));
  }
  if (plan.error) {
    const status = plan.error.status ?? 500;
    writeSse(res, { error: { code: status, message: plan.error.message || "fake Google server error", status: plan.error.type ?? statusName(status) } });
    return void res.end();
  }
  if (calls.length > 0 || deltas.length === 0) writeSse(res, chunk(plan, model, calls, true));
  res.end();
}

function sendError(res: ServerResponse, status: number, error: { message?: string; status?: string }): void {
  sendJson(res, status, {
    error: { code: status, message: error.message || "fake Google server error", status: error.status ?? statusName(status) },
  });
}
