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
import { anthropicFiles } from "./fake-provider-files.js";

/** The Anthropic endpoint a request used: only the Messages API. */
export type FakeAnthropicApi = "messages";

/** One request the server received (`path` is `/v1/messages`; `headers["x-api-key"]` the key it sent). */
export type FakeAnthropicRequest = FakeModelRequest<FakeAnthropicApi>;

/**
 * One entry per request, or a function of it. `finishReason` is Anthropic's `stop_reason` (default
 * `tool_use` with tool calls, else `end_turn`); an `error` answers with an Anthropic error body, its
 * `type` e.g. `overloaded_error` (default from the status: `authentication_error` for 401, ...).
 */
export type FakeAnthropicScript = FakeModelScript<FakeAnthropicApi>;

export interface FakeAnthropicServerOptions {
  /** One entry per model request (in order), or a function of the request. */
  script: FakeAnthropicScript;
  /**
   * The API key the server accepts. When set, a request with another `x-api-key` gets the 401 Anthropic
   * answers with (`authentication_error`, "invalid x-api-key") and takes no script entry (the script's
   * `index` counts the requests that passed).
   */
  apiKey?: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface FakeAnthropicServer {
  /** The base URL, ending in `/v1`: pass it as `baseURL` to `createAnthropic` or as `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every model request received, oldest first (rejected keys included). */
  readonly requests: readonly FakeAnthropicRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks Anthropic's Messages API (`POST /v1/messages`), streaming
 * (Server-Sent Events: `message_start`, `content_block_*`, `message_delta`, `message_stop`) or not.
 * Scripted like `createFakeOpenAIServer`: text deltas with delays, `thinking` blocks (`reasoning`),
 * web-search citations (`sources`), `tool_use` blocks, error statuses and mid-stream `error` events; every
 * request body is recorded.
 *
 * @example
 * const server = await createFakeAnthropicServer({ script: ["Hello!"] });
 * const model = createAnthropic({ baseURL: server.url, apiKey: "sk-ant-test" })("claude-sonnet-4-5");
 * // ... streamText({ model, prompt: "Hi" }); server.requests[0].body.messages
 * await server.close();
 */
export async function createFakeAnthropicServer(options: FakeAnthropicServerOptions): Promise<FakeAnthropicServer> {
  const requests: FakeAnthropicRequest[] = [];
  /** Requests that passed the key check: the script's index. */
  let scripted = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    if (req.method !== "POST" || path !== "/v1/messages") {
      return sendError(res, 404, { type: "not_found_error", message: `fake Anthropic server: no route for ${req.method} ${path}` });
    }
    const parsed = await readJsonBody(req);
    if (!parsed.ok) return sendError(res, 400, { message: "fake Anthropic server: the body is not JSON" });
    const body = parsed.body;
    const { record, signal } = trackRequest(requests, req, res, { api: "messages", path, body, files: anthropicFiles(body) });
    if (options.apiKey !== undefined && headerOf(req, "x-api-key") !== options.apiKey) {
      return sendError(res, 401, { type: "authentication_error", message: "invalid x-api-key" });
    }
    let entry: FakeModelEntry;
    try {
      entry = await pickEntry(options.script, { index: scripted++, api: "messages", body }, "fake Anthropic server");
    } catch (error) {
      return sendError(res, 400, { message: messageOf(error) });
    }
    if (failsAtStart(entry)) return sendError(res, entry.error.status ?? 500, entry.error);
    const model = typeof body?.model === "string" ? body.model : "claude-fake";
    const plan = planReply(entry, record.index, (i, n) => `toolu_fake_${i}_${n}`);
    if (body?.stream === true) await streamMessage(res, plan, model, signal);
    else sendJson(res, 200, messageJson(plan, model));
  }

  const server = await listen({
    host: options.host,
    port: options.port,
    handle,
    onCrash: (res, error) => sendError(res, 500, { message: `fake Anthropic server: ${messageOf(error)}` }),
  });
  return { url: `${server.origin}/v1`, requests, close: server.close };
}

function stopReason(plan: ReplyPlan): string {
  return plan.finishReason ?? (plan.toolCalls.length > 0 ? "tool_use" : "end_turn");
}

/** Anthropic's error type for an HTTP status. */
function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

async function streamMessage(res: ServerResponse, plan: ReplyPlan, model: string, signal: AbortSignal): Promise<void> {
  startSse(res);
  const event = (type: string, data: Record<string, unknown>) => writeSse(res, { type, ...data }, type);
  event("message_start", {
    message: {
      id: `msg_fake_${plan.index}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: plan.inputTokens, output_tokens: 1 },
    },
  });
  event("ping", {});
  let index = 0;
  if (plan.reasoning.length > 0) {
    // Extended thinking: a `thinking` block, its deltas, then its signature.
    event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const thinking of plan.reasoning) event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } });
    event("content_block_delta", { index, delta: { type: "signature_delta", signature: `fake-signature-${plan.index}` } });
    event("content_block_stop", { index });
    index++;
  }
  if (plan.deltas.length > 0 || (plan.error && plan.toolCalls.length === 0)) {
    event("content_block_start", { index, content_block: { type: "text", text: "", citations: plan.sources.length > 0 ? [] : null } });
    for (const delta of plan.deltas) {
      if (!(await pause(delta.delay, signal))) return;
      event("content_block_delta", { index, delta: { type: "text_delta", text: delta.text } });
    }
    // What the web search tool found, cited by the text it supports.
    for (const [n, source] of plan.sources.entries()) {
      const citation = { type: "web_search_result_location", cited_text: plan.text, url: source.url, title: source.title, encrypted_index: `fake-index-${plan.index}-${n}` };
      event("content_block_delta", { index, delta: { type: "citations_delta", citation } });
    }
    if (plan.error) {
      event("error", { error: { type: plan.error.type ?? "overloaded_error", message: plan.error.message || "Overloaded" } });
      return void res.end();
    }
    event("content_block_stop", { index });
    index++;
  }
  for (const call of plan.toolCalls) {
    event("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
    event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: call.arguments } });
    event("content_block_stop", { index });
    index++;
  }
  event("message_delta", {
    delta: { stop_reason: stopReason(plan), stop_sequence: null },
    usage: { output_tokens: plan.outputTokens },
  });
  event("message_stop", {});
  res.end();
}

function messageJson(plan: ReplyPlan, model: string): unknown {
  return {
    id: `msg_fake_${plan.index}`,
    type: "message",
    role: "assistant",
    model,
    content: [
      ...(plan.text.length > 0 ? [{ type: "text", text: plan.text }] : []),
      ...plan.toolCalls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.input })),
    ],
    stop_reason: stopReason(plan),
    stop_sequence: null,
    usage: { input_tokens: plan.inputTokens, output_tokens: plan.outputTokens },
  };
}

function sendError(res: ServerResponse, status: number, error: { message?: string; type?: string }): void {
  sendJson(res, status, {
    type: "error",
    error: { type: error.type ?? errorType(status), message: error.message || "fake Anthropic server error" },
  });
}
