import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptDelta } from "./scripted-model.js";

/** A tool call the fake server streams. */
export interface FakeOpenAIToolCall {
  /** The function's name. */
  toolName: string;
  /** Sent as the call's JSON `arguments`. */
  input: unknown;
  /** Defaults to `call_<request>_<n>`. */
  toolCallId?: string;
}

/** What the server answers one request with. A bare string is `{ text }`. */
export interface FakeOpenAIReply {
  /** The reply: one string, or its deltas (each optionally delayed). */
  text?: string | ScriptDelta[];
  /** Milliseconds before every delta (a delta's own `delay` wins). */
  delay?: number;
  /** Function calls made after the text. */
  toolCalls?: FakeOpenAIToolCall[];
  /** Token counts reported in the usage chunk (defaults: 10 in, about a token per 4 characters out). */
  usage?: { inputTokens?: number; outputTokens?: number };
  /** Chat Completions `finish_reason` (default `tool_calls` with tool calls, else `stop`). */
  finishReason?: string;
  /**
   * Fails the request. `status` (default 500) answers with that HTTP status and an OpenAI error body
   * before any output; `at: "end"` streams the text first, then an error event. Note the AI SDK retries
   * 429 and 5xx answers (`maxRetries`, default 2), and each retry is a request that takes the next entry.
   */
  error?: { message?: string; status?: number; type?: string; code?: string; at?: "start" | "end" };
}

export type FakeOpenAIEntry = string | FakeOpenAIReply;

/** The OpenAI API a request used. */
export type FakeOpenAIApi = "chat-completions" | "responses";

/** One request the server received, as it arrived. */
export interface FakeOpenAIRequest {
  /** 0 for the first request. */
  index: number;
  api: FakeOpenAIApi;
  method: string;
  /** The path, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body. */
  body: any;
  /** True when the client went away before the reply was finished (e.g. a canceled turn). */
  aborted: boolean;
}

/** What the function form of a script receives. */
export interface FakeOpenAIRequestInfo {
  index: number;
  api: FakeOpenAIApi;
  body: any;
}

export type FakeOpenAIScript =
  | FakeOpenAIEntry
  | FakeOpenAIEntry[]
  | ((request: FakeOpenAIRequestInfo) => FakeOpenAIEntry | Promise<FakeOpenAIEntry>);

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

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, { message: `fake OpenAI server: ${messageOf(error)}` });
      else res.destroy();
    });
  });

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
    const raw = await readBody(req);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendError(res, 400, { message: "fake OpenAI server: the body is not JSON", type: "invalid_request_error" });
    }
    const record: FakeOpenAIRequest = {
      index: requests.length,
      api,
      method: req.method,
      path,
      headers: { ...req.headers },
      body,
      aborted: false,
    };
    requests.push(record);
    const closed = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) record.aborted = true;
      closed.abort();
    });

    let entry: FakeOpenAIEntry;
    try {
      entry = await pick(script, { index: record.index, api, body });
    } catch (error) {
      return sendError(res, 400, { message: messageOf(error), type: "invalid_request_error" });
    }
    const reply: FakeOpenAIReply = typeof entry === "string" ? { text: entry } : entry;
    if (reply.error && reply.error.at !== "end") {
      return sendError(res, reply.error.status ?? 500, reply.error);
    }
    const model = typeof body?.model === "string" ? body.model : (options.model ?? "fake-model");
    const plan = planOf(reply, record.index);
    const stream = body?.stream === true;
    if (api === "chat-completions") {
      if (stream) await streamChatCompletion(res, plan, model, closed.signal);
      else sendJson(res, 200, chatCompletionJson(plan, model));
    } else {
      if (stream) await streamResponse(res, plan, model, closed.signal);
      else sendJson(res, 200, responseJson(plan, model));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A reply, made concrete: the deltas with their delays, the calls with their ids. */
interface Plan {
  index: number;
  deltas: { text: string; delay?: number }[];
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  inputTokens: number;
  outputTokens: number;
  finishReason: string;
  error?: { message: string; type: string; code?: string };
}

function planOf(reply: FakeOpenAIReply, index: number): Plan {
  const deltas =
    reply.text === undefined
      ? []
      : typeof reply.text === "string"
        ? [{ text: reply.text }]
        : reply.text.map((d) => (typeof d === "string" ? { text: d } : d));
  const withDelay = deltas.map((d) => ({ text: d.text, delay: d.delay ?? reply.delay }));
  const text = withDelay.map((d) => d.text).join("");
  const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
    id: call.toolCallId ?? `call_${index}_${n}`,
    name: call.toolName,
    arguments: JSON.stringify(call.input ?? {}),
  }));
  return {
    index,
    deltas: withDelay,
    text,
    toolCalls,
    inputTokens: reply.usage?.inputTokens ?? 10,
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(text.length / 4)),
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    error: reply.error
      ? { message: reply.error.message ?? "fake OpenAI server error", type: reply.error.type ?? "server_error", code: reply.error.code }
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
    const part = { type: "output_text", text: plan.text, annotations: [] };
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

async function pick(script: FakeOpenAIScript, info: FakeOpenAIRequestInfo): Promise<FakeOpenAIEntry> {
  if (typeof script === "function") return script(info);
  if (!Array.isArray(script)) {
    if (info.index === 0) return script;
    throw new Error(`fake OpenAI server: no script entry for request ${info.index + 1} (the script has 1)`);
  }
  const entry = script[info.index];
  if (entry === undefined) {
    throw new Error(`fake OpenAI server: no script entry for request ${info.index + 1} (the script has ${script.length})`);
  }
  return entry;
}

function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  if (res.destroyed) return;
  res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

function endSse(res: ServerResponse, api: FakeOpenAIApi): void {
  if (res.destroyed) return;
  if (api === "chat-completions") res.write("data: [DONE]\n\n");
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
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

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Waits `ms` (if any); false when the client went away meanwhile. */
function pause(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (!ms) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(!signal.aborted);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
