import type { IncomingMessage, ServerResponse } from "node:http";
import {
  failsAtStart,
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
  type FakeModelReply,
  type FakeModelRequest,
  type FakeModelRequestInfo,
  type FakeModelScript,
  type FakeModelToolCall,
} from "./fake-provider-http.js";
import { openAIFiles } from "./fake-provider-files.js";

/** A tool call the fake server streams (its input is sent as the call's JSON `arguments`). */
export type FakeOpenAIToolCall = FakeModelToolCall;

/**
 * What the server answers one request with. A bare string is `{ text }`. `finishReason` is the Chat
 * Completions one (default `tool_calls` with tool calls, else `stop`); an `error` answers with an OpenAI
 * error body.
 */
export type FakeOpenAIReply = FakeModelReply;

export type FakeOpenAIEntry = FakeModelEntry;

/** The OpenAI API a request used. */
export type FakeOpenAIApi = "chat-completions" | "responses";

/** One request the server received, as it arrived (`path` e.g. `/v1/chat/completions`). */
export type FakeOpenAIRequest = FakeModelRequest<FakeOpenAIApi>;

/** What the function form of a script receives. */
export type FakeOpenAIRequestInfo = FakeModelRequestInfo<FakeOpenAIApi>;

export type FakeOpenAIScript = FakeModelScript<FakeOpenAIApi>;

export interface FakeOpenAIServerOptions {
  /** One entry per model request (in order), or a function of the request. */
  script: FakeOpenAIScript;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The model name echoed in replies when the request names none. */
  model?: string;
}

export interface FakeOpenAIServer {
  /** The base URL, ending in `/v1`: pass it as `baseURL` or `OPENAI_BASE_URL`. */
  readonly url: string;
  /** Every model request received, oldest first. */
  readonly requests: readonly FakeOpenAIRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI wire format, streaming (Server-Sent Events) or
 * not, for both Chat Completions (`POST /v1/chat/completions`) and Responses (`POST /v1/responses`).
 * Scripted like `scriptedModel`: one entry per request (text deltas with delays, function calls, error
 * statuses); a request the script does not provide gets a 400 that says so. Every request body is
 * recorded, so a test can check the messages that were sent.
 *
 * @example
 * const server = await createFakeOpenAIServer({ script: ["Hello!"] });
 * const model = createOpenAI({ baseURL: server.url, apiKey: "sk-test" })("gpt-5-mini");
 * // ... streamText({ model, prompt: "Hi" }); server.requests[0].body.input
 * await server.close();
 */
export async function createFakeOpenAIServer(options: FakeOpenAIServerOptions): Promise<FakeOpenAIServer> {
  const requests: FakeOpenAIRequest[] = [];
  const script = options.script;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    if (req.method === "GET" && path === "/v1/models") {
      return sendJson(res, 200, { object: "list", data: [{ id: options.model ?? "fake-model", object: "model" }] });
    }
    const api: FakeOpenAIApi | undefined =
      path === "/v1/chat/completions" ? "chat-completions" : path === "/v1/responses" ? "responses" : undefined;
    if (req.method !== "POST" || api === undefined) {
      return sendError(res, 404, { message: `fake OpenAI server: no route for ${req.method} ${path}`, type: "not_found" });
    }
    const parsed = await readJsonBody(req);
    if (!parsed.ok) {
      return sendError(res, 400, { message: "fake OpenAI server: the body is not JSON", type: "invalid_request_error" });
    }
    const body = parsed.body;
    const { record, signal } = trackRequest(requests, req, res, { api, path, body, files: openAIFiles(body) });

    let entry: FakeOpenAIEntry;
    try {
      entry = await pickEntry(script, { index: record.index, api, body }, "fake OpenAI server");
    } catch (error) {
      return sendError(res, 400, { message: messageOf(error), type: "invalid_request_error" });
    }
    if (failsAtStart(entry)) {
      return sendError(res, entry.error.status ?? 500, entry.error);
    }
    const model = typeof body?.model === "string" ? body.model : (options.model ?? "fake-model");
    const plan = planOf(entry, record.index);
    const stream = body?.stream === true;
    if (api === "chat-completions") {
      if (stream) await streamChatCompletion(res, plan, model, signal);
      else sendJson(res, 200, chatCompletionJson(plan, model));
    } else {
      if (stream) await streamResponse(res, plan, model, signal);
      else sendJson(res, 200, responseJson(plan, model));
    }
  }

  const server = await listen({
    host: options.host,
    port: options.port,
    handle,
    onCrash: (res, error) => sendError(res, 500, { message: `fake OpenAI server: ${messageOf(error)}` }),
  });
  return { url: `${server.origin}/v1`, requests, close: server.close };
}

/** A reply, made concrete, with OpenAI's finish reason and error type. */
interface Plan {
  index: number;
  deltas: { text: string; delay?: number }[];
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** Streamed as a Responses reasoning summary (Chat Completions has no reasoning to show). */
  reasoning: string[];
  /** Streamed as Responses `url_citation` annotations. */
  sources: { url: string; title: string }[];
  inputTokens: number;
  outputTokens: number;
  finishReason: string;
  error?: { message: string; type: string; code?: string };
}

function planOf(entry: FakeOpenAIEntry, index: number): Plan {
  const plan = planReply(entry, index, (i, n) => `call_${i}_${n}`);
  return {
    ...plan,
    finishReason: plan.finishReason ?? (plan.toolCalls.length > 0 ? "tool_calls" : "stop"),
    error: plan.error
      ? { message: plan.error.message || "fake OpenAI server error", type: plan.error.type ?? "server_error", code: plan.error.code }
      : undefined,
  };
}

async function streamChatCompletion(res: ServerResponse, plan: Plan, model: string, signal: AbortSignal): Promise<void> {
  startSse(res);
  const id = `chatcmpl-fake-${plan.index}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    writeSse(res, { id, object: "chat.completion.chunk", created, model, choices, ...extra });

  chunk([{ index: 0, delta: { role: "assistant" }, finish_reason: null }]);
  for (const delta of plan.deltas) {
    if (!(await pause(delta.delay, signal))) return;
    chunk([{ index: 0, delta: { content: delta.text }, finish_reason: null }]);
  }
  if (plan.error) {
    writeSse(res, { error: { message: plan.error.message, type: plan.error.type, code: plan.error.code ?? null, param: null } });
    return endSse(res, "chat-completions");
  }
  plan.toolCalls.forEach((call, n) => {
    chunk([
      {
        index: 0,
        delta: { tool_calls: [{ index: n, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] },
        finish_reason: null,
      },
    ]);
    chunk([{ index: 0, delta: { tool_calls: [{ index: n, function: { arguments: call.arguments } }] }, finish_reason: null }]);
  });
  chunk([{ index: 0, delta: {}, finish_reason: plan.finishReason }]);
  chunk([], {
    usage: {
      prompt_tokens: plan.inputTokens,
      completion_tokens: plan.outputTokens,
      total_tokens: plan.inputTokens + plan.outputTokens,
    },
  });
  endSse(res, "chat-completions");
}

function chatCompletionJson(plan: Plan, model: string): unknown {
  return {
    id: `chatcmpl-fake-${plan.index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: plan.text.length > 0 ? plan.text : null,
          ...(plan.toolCalls.length > 0
            ? {
                tool_calls: plan.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: plan.finishReason,
      },
    ],
    usage: {
      prompt_tokens: plan.inputTokens,
      completion_tokens: plan.outputTokens,
      total_tokens: plan.inputTokens + plan.outputTokens,
    },
  };
}

async function streamResponse(res: ServerResponse, plan: Plan, model: string, signal: AbortSignal): Promise<void> {
  startSse(res);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    writeSse(res, { type, sequence_number: sequence++, ...data }, type);
  const responseId = `resp_fake_${plan.index}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const base = { id: responseId, object: "response", created_at: createdAt, model };

  event("response.created", { response: { ...base, status: "in_progress", output: [] } });
  event("response.in_progress", { response: { ...base, status: "in_progress", output: [] } });

  const output: unknown[] = [];
  let outputIndex = 0;
  if (plan.reasoning.length > 0) output.push(streamReasoningSummary(event, plan, outputIndex++));
  if (plan.deltas.length > 0) {
    const itemId = `msg_fake_${plan.index}`;
    const index = outputIndex++;
    event("response.output_item.added", {
      output_index: index,
      item: { id: itemId, type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    event("response.content_part.added", {
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const delta of plan.deltas) {
      if (!(await pause(delta.delay, signal))) return;
      event("response.output_text.delta", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        delta: delta.text,
        logprobs: [],
      });
    }
    if (plan.error) {
      event("error", { code: plan.error.code ?? plan.error.type, message: plan.error.message, param: null });
      return endSse(res, "responses");
    }
    // The web search tool's citations, each an annotation of the text.
    const annotations = plan.sources.map((source) => ({ type: "url_citation", start_index: 0, end_index: plan.text.length, url: source.url, title: source.title }));
    for (const [annotation_index, annotation] of annotations.entries()) {
      event("response.output_text.annotation.added", { item_id: itemId, output_index: index, content_index: 0, annotation_index, annotation });
    }
    const part = { type: "output_text", text: plan.text, annotations };
    event("response.output_text.done", { item_id: itemId, output_index: index, content_index: 0, text: plan.text, logprobs: [] });
    event("response.content_part.done", { item_id: itemId, output_index: index, content_index: 0, part });
    const item = { id: itemId, type: "message", status: "completed", role: "assistant", content: [part] };
    event("response.output_item.done", { output_index: index, item });
    output.push(item);
  } else if (plan.error) {
    event("error", { code: plan.error.code ?? plan.error.type, message: plan.error.message, param: null });
    return endSse(res, "responses");
  }
  for (const call of plan.toolCalls) {
    const index = outputIndex++;
    const itemId = `fc_fake_${plan.index}_${index}`;
    const added = { id: itemId, type: "function_call", status: "in_progress", call_id: call.id, name: call.name, arguments: "" };
    event("response.output_item.added", { output_index: index, item: added });
    event("response.function_call_arguments.delta", { item_id: itemId, output_index: index, delta: call.arguments });
    event("response.function_call_arguments.done", { item_id: itemId, output_index: index, arguments: call.arguments });
    const item = { ...added, status: "completed", arguments: call.arguments };
    event("response.output_item.done", { output_index: index, item });
    output.push(item);
  }
  const incomplete = plan.finishReason === "length" ? { reason: "max_output_tokens" } : null;
  event(incomplete ? "response.incomplete" : "response.completed", {
    response: {
      ...base,
      status: incomplete ? "incomplete" : "completed",
      incomplete_details: incomplete,
      output,
      usage: responsesUsage(plan),
    },
  });
  endSse(res, "responses");
}

/** A reasoning model's summary of its reasoning: a `reasoning` item with one `summary_text` part; returns the item. */
function streamReasoningSummary(event: (type: string, data: Record<string, unknown>) => void, plan: Plan, index: number): unknown {
  const itemId = `rs_fake_${plan.index}`;
  const text = plan.reasoning.join("");
  event("response.output_item.added", { output_index: index, item: { id: itemId, type: "reasoning", summary: [], encrypted_content: null } });
  event("response.reasoning_summary_part.added", { item_id: itemId, output_index: index, summary_index: 0, part: { type: "summary_text", text: "" } });
  for (const delta of plan.reasoning) event("response.reasoning_summary_text.delta", { item_id: itemId, output_index: index, summary_index: 0, delta });
  event("response.reasoning_summary_text.done", { item_id: itemId, output_index: index, summary_index: 0, text });
  event("response.reasoning_summary_part.done", { item_id: itemId, output_index: index, summary_index: 0, part: { type: "summary_text", text } });
  const item = { id: itemId, type: "reasoning", summary: [{ type: "summary_text", text }], encrypted_content: null };
  event("response.output_item.done", { output_index: index, item });
  return item;
}

function responseJson(plan: Plan, model: string): unknown {
  const output: unknown[] = [];
  if (plan.text.length > 0) {
    output.push({
      id: `msg_fake_${plan.index}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: plan.text, annotations: [] }],
    });
  }
  plan.toolCalls.forEach((call, n) => {
    output.push({
      id: `fc_fake_${plan.index}_${n}`,
      type: "function_call",
      status: "completed",
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
    });
  });
  return {
    id: `resp_fake_${plan.index}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    status: plan.finishReason === "length" ? "incomplete" : "completed",
    incomplete_details: plan.finishReason === "length" ? { reason: "max_output_tokens" } : null,
    error: null,
    output,
    usage: responsesUsage(plan),
  };
}

function responsesUsage(plan: Plan): unknown {
  return {
    input_tokens: plan.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: plan.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: plan.inputTokens + plan.outputTokens,
  };
}

function endSse(res: ServerResponse, api: FakeOpenAIApi): void {
  if (res.destroyed) return;
  if (api === "chat-completions") res.write("data: [DONE]\n\n");
  res.end();
}

function sendError(
  res: ServerResponse,
  status: number,
  error: { message?: string; type?: string; code?: string },
): void {
  sendJson(res, status, {
    error: {
      message: error.message ?? "fake OpenAI server error",
      type: error.type ?? (status >= 500 ? "server_error" : "invalid_request_error"),
      param: null,
      code: error.code ?? null,
    },
  });
}
