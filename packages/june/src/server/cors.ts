import { jsonResponse } from "./http-error.js";

/** Which origins may call the handler from a browser, for `createChatHandler`'s `cors` option. */
export interface CorsOptions {
  /**
   * The allowed origins: one (`"https://app.example.com"`), a list, `"*"` for any, or a function of the
   * request's `Origin` header that returns (a promise of) whether to allow it.
   */
  origin: string | readonly string[] | ((origin: string, request: Request) => boolean | Promise<boolean>);
  /** Send `Access-Control-Allow-Credentials: true`, so cookies and HTTP auth go along (default `false`). */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds (default 600). */
  maxAge?: number;
}

type FetchHandler = (request: Request) => Promise<Response>;

const ALLOWED_METHODS = "GET, POST, PUT, DELETE, OPTIONS";
/** The headers a browser script may read on the handler's responses (assistant-ui's resumable reads the last). */
const EXPOSED_HEADERS = "x-june-turn-id, x-june-session-id, x-resumable-stream-id";

/**
 * Wraps a handler with CORS: a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed
 * origin is answered 204 with the `Access-Control-Allow-*` headers, before authorization (browsers send
 * preflights without credentials); every response to an allowed origin gets `Access-Control-Allow-Origin`
 * (that origin, never `*`), `Vary: Origin` and the exposed headers. A preflight from any other origin gets
 * a 403 with no CORS headers; its other requests are served as without CORS, with none either, so the
 * browser keeps the response from the page.
 */
export function withCors(handler: FetchHandler, options: CorsOptions): FetchHandler {
  const allows = originCheck(options);
  const maxAge = options.maxAge ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new TypeError(`createChatHandler: cors.maxAge must be a whole number of seconds, got ${maxAge}`);
  const credentials = options.credentials === true;

  return async (request) => {
    const origin = request.headers.get("origin");
    let allowed = false;
    try {
      allowed = origin !== null && (await allows(origin, request));
    } catch {
      // A check that throws allows nothing.
    }
    const preflight = request.method === "OPTIONS" && request.headers.has("access-control-request-method");
    if (preflight) {
      if (!allowed || origin === null) return jsonResponse(403, { error: `Origin ${JSON.stringify((origin ?? "(none)").slice(0, 200))} is not allowed to call this handler` });
      const headers = new Headers(originHeaders(origin, credentials));
      headers.set("access-control-allow-methods", ALLOWED_METHODS);
      const requested = request.headers.get("access-control-request-headers");
      if (requested) headers.set("access-control-allow-headers", requested);
      headers.set("access-control-max-age", String(maxAge));
      headers.append("vary", "Access-Control-Request-Headers");
      return new Response(null, { status: 204, headers });
    }
    const response = await handler(request);
    if (!allowed || origin === null) return response;
    return withHeaders(response, { ...originHeaders(origin, credentials), "access-control-expose-headers": EXPOSED_HEADERS });
  };
}

function originHeaders(origin: string, credentials: boolean): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    vary: "Origin",
    ...(credentials && { "access-control-allow-credentials": "true" }),
  };
}

function originCheck(options: CorsOptions): (origin: string, request: Request) => boolean | Promise<boolean> {
  const { origin } = options;
  if (typeof origin === "function") return async (value, request) => (await origin(value, request)) === true;
  const list = typeof origin === "string" ? [origin] : origin;
  if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === "string" && item !== "")) {
    throw new TypeError("createChatHandler: cors.origin must be an origin, a non-empty list of origins, \"*\" or a function");
  }
  if (list.includes("*")) {
    if (options.credentials) throw new TypeError(`createChatHandler: cors.origin "*" cannot go with credentials: list the origins instead`);
    return () => true;
  }
  for (const item of list) {
    if (item.endsWith("/") || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i.test(item)) {
      throw new TypeError(`createChatHandler: cors.origin entries are origins such as "https://app.example.com" (scheme and host, no path), got "${item}"`);
    }
  }
  const allowed = new Set(list.map((item) => item.toLowerCase()));
  return (value) => allowed.has(value.toLowerCase());
}

/** The response with headers added: its own headers when mutable, else a copy. */
function withHeaders(response: Response, add: Record<string, string>): Response {
  const set = (headers: Headers) => {
    for (const [name, value] of Object.entries(add)) {
      if (name === "vary") headers.append(name, value);
      else headers.set(name, value);
    }
  };
  try {
    set(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    set(copy.headers);
    return copy;
  }
}
