import type { TextRedactOptions } from "../redaction/redact.js";
import type { Chat } from "../chat/types.js";
import { branchRoutes } from "./branch-routes.js";
import { type CorsOptions, withCors } from "./cors.js";
import { durableRoutes } from "./durable-routes.js";
import { HandlerContext, type UiChatOptions } from "./handler-context.js";
import { errorResponse, HttpError } from "./http-error.js";
import { Router } from "./router.js";
import { memoryRoutes } from "./memory-routes.js";
import { type Authorize, type CanAccess, principalOf, SessionAccess } from "./session-access.js";
import { sessionRoutes } from "./session-routes.js";
import { memoryTurnEvents, type TurnEventBus } from "./turn-event-bus.js";
import { turnRoutes } from "./turn-routes.js";
import { scheduleRoutes } from "./schedule-routes.js";
import { uiChatRoutes } from "./ui-chat.js";

/** A Fetch-API request handler. */
export type ChatHandler = (request: Request) => Promise<Response>;

/** Options for `createChatHandler`. */
export interface ChatHandlerOptions {
  /**
   * Guards every route and says who asks: `false` answers 401; `true` reaches every session (one user);
   * `{ owner }` (a `Principal`, with whatever else the app carries) reaches only that owner's sessions. Sessions
   * created through the handler are then the principal's (journaled as their `owner`); listing shows only
   * them; every route on another's session, or on a turn of it, answers 404 exactly as for one that does not
   * exist, and changes nothing.
   */
  authorize?: Authorize;
  /**
   * With principals: also lets a principal use a session that is not its own (a team's, an admin's view):
   * asked with the principal and the session's `SessionInfo`, for routes on that session or its turns.
   */
  canAccess?: CanAccess;
  /** The path the routes live under, such as `"/api"` (default: the root). */
  basePath?: string;
  /**
   * Largest request body accepted, in bytes (default 4 MiB); past it, 413. The longest `input` is the chat's
   * own `maxInputChars` (past it, 413 too).
   */
  maxBodyBytes?: number;
  /** Milliseconds between SSE keep-alive comments (default 15,000; 0 turns them off). */
  keepAliveMs?: number;
  /** Most ended turns kept for replay (default 200). */
  maxEndedTurns?: number;
  /**
   * Credentials of your own shape, masked after June's own patterns in every answer, event and error
   * (`{ patterns: [/acme_[a-z0-9]{20}/] }`); see `redactText`.
   */
  redact?: TextRedactOptions;
  /** How long an ended turn's events stay available for replay, in ms (default 15 minutes). */
  endedTurnTtlMs?: number;
  /**
   * Shares turns with the other processes serving this chat, so a client can rejoin a turn's events, or
   * approve, deny, cancel or steer it, through any of them (`redisTurnEvents()` from `june/server/redis`).
   * Default: this process only.
   */
  turnEvents?: TurnEventBus;
  /** `POST /ui-chat`'s behavior: `{ cancelOnDisconnect }` (default `true`: `useChat`'s `stop()` cancels the turn). */
  uiChat?: UiChatOptions;
  /**
   * Answers browsers on other origins (a page on `https://app.example.com` calling a handler elsewhere):
   * preflights from the configured origins get their `Access-Control-*` answer, and every response to
   * them the CORS headers; other origins get none. Default: no CORS headers at all.
   */
  cors?: CorsOptions;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_KEEP_ALIVE_MS = 15_000;

/**
 * Serves one `Chat` over HTTP as a Fetch-API handler, `(request) => Promise<Response>`, so it runs under
 * Node's `http` (see `toNodeListener`), Hono, Next.js route handlers, Bun and Deno alike.
 *
 * Routes (under `basePath`): `GET|POST /sessions`, `GET|DELETE /sessions/:id` (a GET also gives `branches`,
 * the alternatives at each turn that has any), `PUT /sessions/:id/title` `{ title }` (renames it; the session's info), `POST /sessions/:id/turns`
 * `{ input }` (the turn's events as Server-Sent Events), `GET /turns/:id/events` (again, from the start or
 * after `Last-Event-ID`), `POST /sessions/:id/turns/:turnId/approve|deny` (`{ approvalId, remember?, input? }` / `{ approvalId, reason? }`),
 * `answer` (`{ requestId, value }`), `steer` (`{ input }`) and `cancel` (each control has this one route),
 * `POST /sessions/:id/turns/:turnId/feedback`, the branch routes (`POST /sessions/:id/turns/:turnId/regenerate`,
 * `.../edit` `{ input }`, `GET .../branches`, `POST /sessions/:id/checkout` `{ turnId }`; see `branchRoutes`), `GET /sessions/:id/cases?filter=all|up|down` (the session's
 * eval cases as a JSONL download), `POST /ui-chat` (the AI SDK UI message stream protocol, for `useChat`:
 * send, regenerate, tool approvals; a client that aborts it cancels its turn unless
 * `uiChat.cancelOnDisconnect` is `false`), and `GET /sessions/:id/ui-messages` (the current branch as
 * `UIMessage[]`, for `useChat({ id, messages })` after a reload), `GET /schedules` (the chat's schedules, read only:
 * see `scheduleRoutes`). Every response is redacted: `run-update` events go out as `projectChatTrace` rows, never
 * the raw tree. On the SSE routes a client that disconnects never cancels its turn; only `/cancel` does. Bad bodies get a 4xx
 * with a JSON `{ error }`.
 *
 * Sessions belong to someone when `authorize` answers a principal `{ owner }`: the sessions it creates are
 * the principal's, listing shows only those, and every route on another's session or a turn of it answers 404
 * as for one that does not exist (see `SessionAccess`, the one place that decides).
 *
 * @param chat The chat to serve.
 * @param options `authorize`, `canAccess`, `basePath` and limits.
 * @example
 * const handler = createChatHandler(chat, { basePath: "/api", authorize: (req) => req.headers.get("x-key") === key });
 * // Many users: each reaches only their own sessions.
 * const multi = createChatHandler(chat, {
 *   authorize: async (req) => {
 *     const user = await userOf(req); // your session check: a signed cookie, a bearer token
 *     return user ? { owner: user.id } : false;
 *   },
 * });
 * await serve({ handler, port: 3000 });
 */
export function createChatHandler(chat: Chat, options: ChatHandlerOptions = {}): ChatHandler {
  const basePath = normalizeBasePath(options.basePath);
  const redaction = redactOptions(options.redact);
  const context = new HandlerContext(chat, {
    turnEvents: options.turnEvents ?? memoryTurnEvents(),
    redact: redaction,
    maxBodyBytes: positive(options.maxBodyBytes, "maxBodyBytes") ?? DEFAULT_MAX_BODY_BYTES,
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    maxEndedTurns: options.maxEndedTurns,
    endedTurnTtlMs: options.endedTurnTtlMs,
    uiChat: options.uiChat,
  });
  const router = chatRouter(context);
  const { authorize, canAccess } = options;
  if (authorize !== undefined && typeof authorize !== "function") throw new TypeError("createChatHandler: authorize must be a function");
  if (canAccess !== undefined && typeof canAccess !== "function") throw new TypeError("createChatHandler: canAccess must be a function");

  const handler: ChatHandler = async (request) => {
    try {
      const principal = authorize ? principalOf(await authorize(request)) : undefined;
      const url = new URL(request.url);
      const path = stripBasePath(url.pathname, basePath);
      if (path === undefined) throw new HttpError(404, `No route for ${request.method} ${url.pathname}: this handler serves under ${basePath}`);
      const match = router.match(request.method, path);
      switch (match.kind) {
        case "found": {
          // The one check of whose session a route is on, before any route runs (see `SessionAccess`).
          const access = new SessionAccess(context, principal, canAccess);
          await access.guard(match.params);
          return await match.handler({ request, url, params: match.params, access });
        }
        case "method-not-allowed":
          throw new HttpError(405, `${request.method} is not allowed on ${url.pathname}`, {
            headers: { allow: match.allowed.join(", ") },
          });
        case "not-found":
          throw new HttpError(404, `No route for ${request.method} ${url.pathname}${mountHint(router, request.method, path, basePath)}`);
        default: {
          const unreachable: never = match;
          // Internal invariant (bare Error on purpose): the `never` check above makes this unreachable.
          throw new Error(`unknown route match ${String(unreachable)}`);
        }
      }
    } catch (error) {
      // The one `onError`: every error class gets its status in `errorResponse`.
      return errorResponse(error, redaction);
    }
  };
  return options.cors ? withCors(handler, options.cors) : handler;
}

/**
 * Every route of a handler: the route groups, mounted like Hono's `app.route(prefix, group)`. In every pattern,
 * `:id` is a session id (checked to be the caller's before the route runs) and `:turnId` a turn id.
 */
export function chatRouter(context: HandlerContext): Router {
  return new Router()
    .route("/sessions", sessionRoutes(context))
    .route("/sessions", branchRoutes(context))
    .route("/sessions", durableRoutes(context))
    .route("/turns", turnRoutes(context))
    .route("/memory", memoryRoutes(context))
    .route("/schedules", scheduleRoutes(context))
    .route("/", uiChatRoutes(context));
}

function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === "" || basePath === "/") return "";
  if (!basePath.startsWith("/")) throw new TypeError(`createChatHandler: basePath must start with "/", got "${basePath}"`);
  return basePath.replace(/\/+$/, "");
}

/**
 * When the path is a route under a prefix (the handler mounted under a path, with no or another
 * `basePath`), what to set: the frameworks hand the handler the full URL, prefix included.
 */
function mountHint(router: Router, method: string, path: string, basePath: string): string {
  const segments = path.split("/").filter((segment) => segment !== "");
  for (let cut = 1; cut < segments.length; cut++) {
    const rest = `/${segments.slice(cut).join("/")}`;
    if (router.match(method, rest).kind === "not-found") continue;
    const prefix = `${basePath}/${segments.slice(0, cut).join("/")}`;
    return `: this handler serves under ${basePath === "" ? "/ (no basePath)" : basePath}; for routes under ${prefix}, create it with basePath: "${prefix}"`;
  }
  return "";
}

function stripBasePath(pathname: string, basePath: string): string | undefined {
  if (basePath === "") return pathname;
  if (pathname === basePath) return "/";
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

function redactOptions(value: TextRedactOptions | undefined): TextRedactOptions {
  const patterns = value?.patterns;
  if (patterns !== undefined && (!Array.isArray(patterns) || !patterns.every((p) => p instanceof RegExp))) {
    throw new TypeError("createChatHandler: redact.patterns must be an array of regular expressions");
  }
  return patterns === undefined ? {} : { patterns };
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`createChatHandler: ${name} must be a positive number, got ${value}`);
  return value;
}
