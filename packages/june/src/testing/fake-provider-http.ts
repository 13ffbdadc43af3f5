/**
 * What the fake provider servers (OpenAI, Anthropic, Google) share: the script a test writes (one reply per
 * request), the plan a reply becomes, and the HTTP plumbing (a server on 127.0.0.1, bodies, Server-Sent
 * Events, delays that stop when the client goes away). Each server only adds its provider's wire format.
 */
import { ScriptExhaustedError } from "./errors.js";
import type { FakeModelFile } from "./fake-provider-files.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptDelta } from "./scripted-model.js";

/** A tool call a fake server streams. */
export interface FakeModelToolCall {
  /** The function's name. */
  toolName: string;
  /** Sent as the call's arguments. */
  input: unknown;
  /** Defaults to an id made of the request's index and the call's. */
  toolCallId?: string;
}

/** What a fake server answers one request with. A bare string is `{ text }`. */
export interface FakeModelReply {
  /**
   * What the model reasons before it answers, streamed in the provider's own form (Anthropic: a `thinking`
   * block with its signature; OpenAI Responses: a `reasoning` item's summary): one string, or its deltas.
   */
  reasoning?: string | string[];
  /**
   * Web-search citations of the reply, in the provider's own form (Anthropic: `web_search_result_location`
   * citations on the text block; OpenAI Responses: `url_citation` annotations on the output text).
   */
  sources?: { url: string; title?: string }[];
  /** The reply: one string, or its deltas (each optionally delayed). */
  text?: string | ScriptDelta[];
  /** Milliseconds before every delta (a delta's own `delay` wins). */
  delay?: number;
  /** Function calls made after the text. */
  toolCalls?: FakeModelToolCall[];
  /** Token counts reported (defaults: 10 in, about a token per 4 characters out). */
  usage?: { inputTokens?: number; outputTokens?: number };
  /** The provider's own finish reason (default: the one it uses for tool calls, or for a finished reply). */
  finishReason?: string;
  /**
   * Fails the request. `status` (default 500) answers with that HTTP status and the provider's error body
   * before any output; `at: "end"` streams the text first, then an error event. Note the AI SDK retries
   * 429 and 5xx answers (`maxRetries`, default 2), and each retry is a request that takes the next entry.
   */
  error?: { message?: string; status?: number; type?: string; code?: string; at?: "start" | "end" };
}

export type FakeModelEntry = string | FakeModelReply;

/** One request a fake server received, as it arrived. */
export interface FakeModelRequest<Api extends string = string> {
  /** 0 for the first request. */
  index: number;
  /** Which of the provider's endpoints it used. */
  api: Api;
  method: string;
  /** The path, e.g. `/v1/messages`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body. */
  body: any;
  /**
   * The images, documents and audio the body carried, read from the provider's wire format, inline ones
   * decoded to their bytes (oldest message first).
   */
  files: FakeModelFile[];
  /** True when the client went away before the reply was finished (e.g. a canceled turn). */
  aborted: boolean;
}

/** What the function form of a script receives. */
export interface FakeModelRequestInfo<Api extends string = string> {
  index: number;
  api: Api;
  body: any;
}

export type FakeModelScript<Api extends string = string> =
  | FakeModelEntry
  | FakeModelEntry[]
  | ((request: FakeModelRequestInfo<Api>) => FakeModelEntry | Promise<FakeModelEntry>);

/** A reply, made concrete: the deltas with their delays, the calls with their ids. */
export interface ReplyPlan {
  index: number;
  deltas: { text: string; delay?: number }[];
  text: string;
  toolCalls: { id: string; name: string; input: unknown; arguments: string }[];
  /** The reasoning's deltas (none: no reasoning). */
  reasoning: string[];
  sources: { url: string; title: string }[];
  inputTokens: number;
  outputTokens: number;
  /** The reply's own finish reason, if it gave one. */
  finishReason?: string;
  error?: { message: string; type?: string; code?: string; status?: number };
}

/** Makes a reply concrete; `callId(index, n)` names a call that has no id of its own. */
export function planReply(entry: FakeModelEntry, index: number, callId: (index: number, n: number) => string): ReplyPlan {
  const reply: FakeModelReply = typeof entry === "string" ? { text: entry } : entry;
  const deltas =
    reply.text === undefined
      ? []
      : typeof reply.text === "string"
        ? [{ text: reply.text }]
        : reply.text.map((d) => (typeof d === "string" ? { text: d } : d));
  const withDelay = deltas.map((d) => ({ text: d.text, delay: d.delay ?? reply.delay }));
  const text = withDelay.map((d) => d.text).join("");
  const toolCalls = (reply.toolCalls ?? []).map((call, n) => ({
    id: call.toolCallId ?? callId(index, n),
    name: call.toolName,
    input: call.input ?? {},
    arguments: JSON.stringify(call.input ?? {}),
  }));
  return {
    index,
    deltas: withDelay,
    text,
    toolCalls,
    reasoning: reply.reasoning === undefined ? [] : typeof reply.reasoning === "string" ? [reply.reasoning] : reply.reasoning,
    sources: (reply.sources ?? []).map((source) => ({ url: source.url, title: source.title ?? source.url })),
    inputTokens: reply.usage?.inputTokens ?? 10,
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(text.length / 4)),
    finishReason: reply.finishReason,
    error: reply.error
      ? { message: reply.error.message ?? "", type: reply.error.type, code: reply.error.code, status: reply.error.status }
      : undefined,
  };
}

/** True when a reply fails before any output (an error with no `at: "end"`). */
export function failsAtStart(entry: FakeModelEntry): entry is FakeModelReply & { error: NonNullable<FakeModelReply["error"]> } {
  return typeof entry !== "string" && entry.error !== undefined && entry.error.at !== "end";
}

/** The script's entry for a request; a request it does not provide is an error that says so. */
export async function pickEntry<Api extends string>(
  script: FakeModelScript<Api>,
  info: FakeModelRequestInfo<Api>,
  server: string,
): Promise<FakeModelEntry> {
  if (typeof script === "function") return script(info);
  if (!Array.isArray(script)) {
    if (info.index === 0) return script;
    throw new ScriptExhaustedError({ source: server, call: info.index + 1, entries: 1, unit: "request" });
  }
  const entry = script[info.index];
  if (entry === undefined) {
    throw new ScriptExhaustedError({ source: server, call: info.index + 1, entries: script.length, unit: "request" });
  }
  return entry;
}

/** A started fake server: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface ListeningServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on `host` (default 127.0.0.1), port `port` (default 0: a free one). A handler that
 * throws answers with `onCrash`'s error, or drops the connection when the answer had begun.
 */
export async function listen(options: {
  host?: string;
  port?: number;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  onCrash: (res: ServerResponse, error: unknown) => void;
}): Promise<ListeningServer> {
  const server: Server = createServer((req, res) => {
    options.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) options.onCrash(res, error);
      else res.destroy();
    });
  });
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
    origin: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Records a request and gives a signal that aborts when its client goes away. */
export function trackRequest<Api extends string>(
  requests: FakeModelRequest<Api>[],
  req: IncomingMessage,
  res: ServerResponse,
  fields: { api: Api; path: string; body: unknown; files: FakeModelFile[] },
): { record: FakeModelRequest<Api>; signal: AbortSignal } {
  const record: FakeModelRequest<Api> = {
    index: requests.length,
    api: fields.api,
    method: req.method ?? "POST",
    path: fields.path,
    headers: { ...req.headers },
    body: fields.body,
    files: fields.files,
    aborted: false,
  };
  requests.push(record);
  const closed = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) record.aborted = true;
    closed.abort();
  });
  return { record, signal: closed.signal };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The body parsed as JSON, or `undefined` when it is not JSON. */
export async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; body: any } | { ok: false }> {
  const raw = await readBody(req);
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

/** One event: `event: NAME` (when given) and `data: JSON`. */
export function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  if (res.destroyed) return;
  res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Waits `ms` (if any); false when the client went away meanwhile. */
export function pause(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
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

/** The first value of a request header. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
