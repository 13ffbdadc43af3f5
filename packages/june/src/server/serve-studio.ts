import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Chat } from "../chat/types.js";
import { type ChatHandlerOptions, createChatHandler } from "./create-chat-handler.js";
import { errorResponse, HttpError, jsonResponse } from "./http-error.js";
import { serve, urlHost } from "./node.js";
import { serveStaticFile } from "./static-files.js";

/** Options for `serveStudio`. */
export interface ServeStudioOptions {
  /** The chat Studio talks to. */
  chat: Chat;
  /** Default `"127.0.0.1"`: this machine only. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** The access token (URL-safe, at least 16 characters); default: 32 random bytes, base64url. */
  token?: string;
  /** Aborting it closes the server. */
  signal?: AbortSignal;
  /** The built Studio app; default: the `studio-dist` directory shipped in the `june` package. */
  staticDir?: string;
  /** Limits for the chat handler under `/api` (no `cors`: Studio serves its own origin only). */
  handler?: Omit<ChatHandlerOptions, "basePath" | "authorize" | "cors">;
  /** Called with anything a request handler throws (the client gets a 500). */
  onError?: (error: unknown) => void;
}

/** A running Studio. */
export interface StudioServer {
  /** `http://127.0.0.1:PORT/?token=TOKEN`: the URL to open. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`: the only origin whose requests are served. */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** Stops the server and drops its connections. Turns in flight run on. */
  close(): Promise<void>;
}

/** The built Studio app: `packages/june/studio-dist`, two levels up from both `src/server` and `dist/server`. */
export const DEFAULT_STUDIO_DIR = fileURLToPath(new URL("../../studio-dist/", import.meta.url));

const TOKEN_HEADER = "x-june-token";

/** What a Studio token must be, in words. */
export const STUDIO_TOKEN_RULE = "16 to 512 URL-safe characters (letters, digits, . _ ~ -)";

/** Whether `value` may be a Studio token (`STUDIO_TOKEN_RULE`). */
export function isStudioToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9._~-]{16,512}$/.test(value);
}

/** A new Studio token: 32 random bytes, base64url. */
export function newStudioToken(): string {
  return randomBytes(32).toString("base64url");
}
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", ""]);

/**
 * Serves June Studio for one chat: the web app's static files, and `createChatHandler(chat)` under `/api`.
 * Listens on 127.0.0.1 by default and requires a random token on every request: as the `token` query
 * parameter (the printed URL carries it, and that page load sets an HttpOnly cookie for the rest), the
 * `x-june-token` header, or that cookie; without it, 401. A request whose `Origin` is not Studio's own is
 * refused with 403, and so is one whose `Host` is not Studio's (DNS rebinding).
 *
 * @example
 * const studio = await serveStudio({ chat });
 * console.error(`June Studio: ${studio.url}`);
 */
export async function serveStudio(options: ServeStudioOptions): Promise<StudioServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? newStudioToken();
  if (!isStudioToken(token)) {
    throw new TypeError(`serveStudio: token must be ${STUDIO_TOKEN_RULE}`);
  }
  const staticDir = options.staticDir ?? DEFAULT_STUDIO_DIR;
  const api = createChatHandler(options.chat, { ...options.handler, basePath: "/api", cors: undefined });
  const expected = digest(token);
  let port = 0;
  let cookieName = "june_studio";
  let allowed: { origins: Set<string>; hosts: Set<string> | undefined } = { origins: new Set(), hosts: new Set() };

  const handler = async (request: Request): Promise<Response> => {
    try {
      const url = new URL(request.url);
      const hostHeader = request.headers.get("host") ?? url.host;
      if (allowed.hosts && !allowed.hosts.has(hostHeader.toLowerCase())) {
        throw new HttpError(403, `Host "${hostHeader.slice(0, 100)}" is not this Studio's`);
      }
      const origin = request.headers.get("origin");
      if (origin !== null && !allowed.origins.has(origin) && !(allowed.hosts === undefined && origin === `${url.protocol}//${hostHeader}`)) {
        throw new HttpError(403, "Cross-origin requests are refused");
      }
      const fromQuery = url.searchParams.get("token");
      const supplied = fromQuery ?? request.headers.get(TOKEN_HEADER) ?? readCookie(request, cookieName);
      if (supplied === null || supplied === undefined || !timingSafeEqual(digest(supplied), expected)) {
        if (wantsPage(request, url.pathname)) return tokenPage(supplied !== null && supplied !== undefined);
        throw new HttpError(401, "Missing or wrong token: open the URL `june studio` printed");
      }
      const path = url.pathname;
      if (path === "/api" || path.startsWith("/api/")) return await api(request);
      if (request.method !== "GET" && request.method !== "HEAD") {
        throw new HttpError(405, `${request.method} is not allowed on ${path}`, { headers: { allow: "GET, HEAD" } });
      }
      const headers: Record<string, string> = {};
      if (fromQuery !== null) headers["set-cookie"] = `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`;
      return await serveStaticFile(path, { root: staticDir, headers });
    } catch (error) {
      if (HttpError.isInstance(error)) return errorResponse(error);
      options.onError?.(error);
      return jsonResponse(500, { error: "Internal server error" });
    }
  };

  const server = await serve({ handler, host, port: options.port ?? 0, signal: options.signal, onError: options.onError });
  port = server.port;
  // Cookies are per host, not per port: name this Studio's after its port so two Studios do not collide.
  cookieName = `june_studio_${port}`;
  allowed = allowedFor(host, port);
  const origin = `http://${urlHost(host)}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: () => server.close(),
  };
}

/** The origins and `Host` headers Studio answers: its own, and the loopback names when bound to loopback. */
function allowedFor(host: string, port: number): { origins: Set<string>; hosts: Set<string> | undefined } {
  // Bound to every interface: any host may be Studio's, so only same-origin requests (Origin = Host) pass.
  if (WILDCARD_HOSTS.has(host)) return { origins: new Set(), hosts: undefined };
  const names = LOOPBACK_HOSTS.has(host.toLowerCase()) ? ["127.0.0.1", "localhost", "[::1]"] : [urlHost(host).toLowerCase()];
  return {
    origins: new Set(names.map((name) => `http://${name}:${port}`)),
    hosts: new Set(names.map((name) => `${name}:${port}`)),
  };
}

/** A browser opening a page (not the API, not a script's fetch): it gets a page it can read. */
function wantsPage(request: Request, path: string): boolean {
  if (request.method !== "GET" || path === "/api" || path.startsWith("/api/")) return false;
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/** The 401 a person sees: what is wrong and what to do, in a page (never the token, never JSON). */
function tokenPage(wrong: boolean): Response {
  const problem = wrong ? "This link's token is not this Studio's." : "This link has no token.";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>June Studio: open the link from your terminal</title>
<style>
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;padding:24px;box-sizing:border-box}
main{max-width:480px}h1{font-size:20px;margin:0 0 12px}p{margin:0 0 12px}code{font:13px ui-monospace,Menlo,Consolas,monospace;background:rgba(127,127,127,.14);padding:1px 5px;border-radius:4px}
.mark{width:16px;height:16px;border-radius:4px;background:linear-gradient(135deg,#f2b66d,#e07a5f);display:inline-block;vertical-align:-2px;margin-right:8px}
</style></head>
<body><main data-june-studio="token-page">
<h1><span class="mark"></span>Open June Studio from the link in your terminal</h1>
<p>${problem} Studio only answers the exact address <code>june studio</code> printed when it started, the one that ends in <code>?token=…</code>.</p>
<p>Copy that address from the terminal where <code>june studio</code> runs and open it here. A restarted Studio keeps its token and port (kept beside its store), unless it was started with another <code>--token</code> or its port was taken: then use the new address.</p>
</main></body></html>`;
  return new Response(html, {
    status: 401,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const index = pair.indexOf("=");
    if (index === -1) continue;
    if (pair.slice(0, index).trim() === name) return pair.slice(index + 1).trim();
  }
  return undefined;
}
