import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { JuneError } from "../errors/june-error.js";

/** A Fetch-API request handler, such as `createChatHandler` returns. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A Node `http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Options for `toNodeListener`. */
export interface NodeListenerOptions {
  /** Called with anything the handler throws (the client gets a 500 JSON without it). */
  onError?: (error: unknown) => void;
}

/**
 * Adapts a Fetch-API handler to Node's `http`: builds the `Request` (its body streamed, its `signal`
 * aborted when the client disconnects), and streams the `Response` back with backpressure (Server-Sent
 * Events go out as they are written). A handler that throws gets a 500 with a JSON `{ error }`, never a
 * crash and never the error's details.
 *
 * @example
 * http.createServer(toNodeListener(createChatHandler(chat))).listen(3000);
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  return (req, res) => {
    handle(handler, req, res, options).catch((error: unknown) => {
      // Writing the response failed past the point of answering: drop the connection.
      options.onError?.(error);
      res.destroy();
    });
  };
}

async function handle(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, options: NodeListenerOptions): Promise<void> {
  const disconnected = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) disconnected.abort();
  };
  res.once("close", onClose);
  let response: Response;
  let request: Request;
  try {
    request = toRequest(req, disconnected.signal);
  } catch (error) {
    // A method the Fetch API refuses to build a Request for (TRACE, CONNECT): no handler can serve it.
    if (isUnbuildableMethod(req.method)) {
      await writeResponse(await methodNotAllowed(handler, req), req, res, disconnected.signal);
      return;
    }
    if (!BodyAlreadyReadError.isInstance(error)) throw error;
    options.onError?.(error);
    // A setup mistake, not an internal: say what it is.
    await writeResponse(jsonError(500, error.message), req, res, disconnected.signal);
    return;
  }
  try {
    response = await handler(request);
    if (!(response instanceof Response)) throw new TypeError("The handler did not return a Response");
  } catch (error) {
    options.onError?.(error);
    response = jsonError(500, "Internal server error");
  }
  await writeResponse(response, req, res, disconnected.signal);
}

function jsonError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

/** A request whose body another middleware read and did not leave parsed: `toNodeListener` answers 500 with this message. */
export class BodyAlreadyReadError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.BodyAlreadyReadError");
  override readonly name = "BodyAlreadyReadError";

  constructor(method: string, path: string) {
    super(
      `The body of ${method} ${path} was read before the June handler by another middleware, which left no parsed body (req.body): mount the handler before body-reading middleware`,
    );
  }
}

/** A Node request as Express and Connect leave it: the full path before mounting, a body parsed by a middleware. */
type FrameworkRequest = IncomingMessage & { originalUrl?: unknown; body?: unknown };

/** Methods Node parses but the Fetch API will not build a `Request` for. */
const UNBUILDABLE_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"]);

function isUnbuildableMethod(method: string | undefined): boolean {
  return method !== undefined && UNBUILDABLE_METHODS.has(method.toUpperCase());
}

/** What the `Allow` of a 405 says when the handler does not say it: the methods a Fetch handler can serve. */
const FETCH_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/**
 * The 405 for a method no Fetch handler can be called with. Its `Allow` is what the handler answers an
 * `OPTIONS` request for the same URL with (the methods of that route), else every method a handler can take.
 */
async function methodNotAllowed(handler: FetchHandler, req: IncomingMessage): Promise<Response> {
  const url = requestUrl(req, (req.socket as Partial<TLSSocket>).encrypted === true ? "https" : "http");
  let allow = FETCH_METHODS;
  try {
    const probe = await handler(new Request(url, { method: "OPTIONS", headers: copyHeaders(req) }));
    allow = probe.headers.get("allow") ?? allow;
    await probe.body?.cancel().catch(() => {});
  } catch {
    // The handler cannot say: the generic list stands.
  }
  return new Response(JSON.stringify({ error: `${req.method} is not allowed on ${url.pathname}` }), {
    status: 405,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", allow },
  });
}

function copyHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header the Fetch API refuses (invalid characters): the handler never sees it.
    }
  }
  return headers;
}

/**
 * The Fetch `Request` for a Node request. Its URL is the full path the client asked for: under Express or
 * Connect, `req.originalUrl` (so `app.use("/api/june", listener)` hands the handler `/api/june/...`, and
 * its `basePath` is that prefix). A body another middleware already parsed (`express.json()`,
 * `express.text()`, `express.raw()`: `req.body`) is used as the body; one read and not left parsed is a
 * `BodyAlreadyReadError`.
 */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true;
  const url = requestUrl(req, encrypted ? "https" : "http");
  const headers = copyHeaders(req);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (signal) init.signal = signal;
  if (method !== "GET" && method !== "HEAD") {
    const parsed = (req as FrameworkRequest).body;
    if (req.readableEnded && parsed !== undefined) {
      // Re-encoded: the client's length and encoding no longer describe it.
      headers.delete("content-length");
      headers.delete("transfer-encoding");
      headers.delete("content-encoding");
      init.body = parsedBody(parsed, headers);
    } else if (req.readableEnded) {
      throw new BodyAlreadyReadError(method, url.pathname);
    } else {
      init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
      init.duplex = "half";
    }
  }
  return new Request(url, init);
}

/** A body a middleware parsed, as bytes again: bytes and text as they are, anything else as JSON. */
function parsedBody(parsed: unknown, headers: Headers): BodyInit {
  if (typeof parsed === "string") return parsed;
  if (parsed instanceof Uint8Array) return new Uint8Array(parsed);
  headers.set("content-type", "application/json");
  return JSON.stringify(parsed);
}

function requestUrl(req: IncomingMessage, protocol: string): URL {
  const original = (req as FrameworkRequest).originalUrl;
  const path = typeof original === "string" && original.startsWith("/") ? original : (req.url ?? "/");
  try {
    return new URL(path, `${protocol}://${req.headers.host ?? "localhost"}`);
  } catch {
    // A malformed Host header: keep the path, not the host.
    try {
      return new URL(path, `${protocol}://localhost`);
    } catch {
      return new URL(`${protocol}://localhost/`);
    }
  }
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);

  const body = response.body;
  if (!body || req.method === "HEAD") {
    await body?.cancel().catch(() => {});
    res.end();
    return;
  }
  // A streamed body (no length, such as Server-Sent Events): send the headers now, not with the first event.
  if (!response.headers.has("content-length")) res.flushHeaders();

  const reader = body.getReader();
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (res.destroyed) {
        stop();
        return;
      }
      if (!res.write(next.value)) await drained(res);
    }
    res.end();
  } catch {
    // The body stream failed mid-way: the status is sent already, so end the connection abruptly.
    res.destroy();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

/** Options for `serve`. */
export interface ServeOptions {
  handler: FetchHandler;
  /** Default 0: a free port. */
  port?: number;
  /** Default `"127.0.0.1"`: this machine only. */
  host?: string;
  /** Aborting it closes the server. */
  signal?: AbortSignal;
  onError?: (error: unknown) => void;
}

/** A listening server. */
export interface RunningServer {
  /** `http://host:port` (a wildcard host shows as the loopback address). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly server: Server;
  /** Stops listening and drops open connections (streams in flight end). */
  close(): Promise<void>;
}

/**
 * Serves a Fetch-API handler with Node's `http` on `host:port` (default `127.0.0.1`, a free port).
 *
 * @example
 * const server = await serve({ handler: createChatHandler(chat), port: 3000 });
 * console.log(server.url);
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(toNodeListener(options.handler, { onError: options.onError }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      options.signal?.removeEventListener("abort", onAbort);
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const onAbort = () => void close();
  if (options.signal?.aborted) await close();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  return { url: `http://${urlHost(host)}:${port}`, port, host, server, close };
}

/** The host as a URL shows it: IPv6 in brackets, a wildcard as loopback. */
export function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}
