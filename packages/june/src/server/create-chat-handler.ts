import { redact, type TextRedactOptions } from "../redaction/redact.js";
import type { Chat, Session, Turn } from "../chat/types.js";
import type { ListSessionsOptions } from "../stores/types.js";
import {
  type JsonObject,
  optionalObject,
  optionalString,
  readJsonObject,
  rejectUnknownFields,
  requireString,
} from "./body.js";
import { errorResponse, HttpError, json, withInputErrors } from "./http-error.js";
import { type RouteContext, Router } from "./router.js";
import { addBranchRoutes } from "./branch-routes.js";
import { handleSessionCases } from "./session-cases.js";
import { startTurnResponse } from "./start-turn.js";
import { turnEventsResponse } from "./sse.js";
import { servedTurnOf } from "./turn-control.js";
import { memoryTurnEvents, type ServedTurn, type TurnControl, type TurnEventBus } from "./turn-event-bus.js";
import { type LiveTurn, TurnRegistry } from "./turn-registry.js";
import { addDurableRoutes, pendingApprovalsOf, resumeServed } from "./durable-routes.js";
import { type CorsOptions, withCors } from "./cors.js";
import { handleUiChat, handleUiMessages, type UiChatOptions } from "./ui-chat.js";

/** A Fetch-API request handler. */
export type ChatHandler = (request: Request) => Promise<Response>;

/** Options for `createChatHandler`. */
export interface ChatHandlerOptions {
  /** Guards every route: return `false` (or a promise of it) to answer 401. */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /** The path the routes live under, such as `"/api"` (default: the root). */
  basePath?: string;
  /** Largest request body accepted, in bytes (default 4 MiB); past it, 413. */
  maxBodyBytes?: number;
  /** Longest `input` accepted, in characters (default 1,000,000); past it, 413. */
  maxInputChars?: number;
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

/** What the route handlers share. */
export interface HandlerContext {
  chat: Chat;
  registry: TurnRegistry;
  /** Where turns are shared with other processes. */
  turnEvents: TurnEventBus;
  /** Serves a turn this process runs: tracked here, and published on `turnEvents` (resolves once it is). */
  track(turn: Turn): Promise<LiveTurn>;
  maxBodyBytes: number;
  maxInputChars: number;
  keepAliveMs: number;
  uiChat: UiChatOptions;
  /** The user's own redaction patterns, for every response. */
  redact: TextRedactOptions;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_INPUT_CHARS = 1_000_000;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const MAX_LIST_LIMIT = 1_000;

/**
 * Serves one `Chat` over HTTP as a Fetch-API handler, `(request) => Promise<Response>`, so it runs under
 * Node's `http` (see `toNodeListener`), Hono, Next.js route handlers, Bun and Deno alike.
 *
 * Routes (under `basePath`): `GET|POST /sessions`, `GET|DELETE /sessions/:id` (a GET also gives `branches`,
 * the alternatives at each turn that has any), `PUT /sessions/:id/title` `{ title }` (renames it; the session's info), `POST /sessions/:id/turns`
 * `{ input }` (the turn's events as Server-Sent Events), `GET /turns/:id/events` (again, from the start or
 * after `Last-Event-ID`), `POST /turns/:id/approve|deny|cancel|steer`,
 * `POST /sessions/:id/turns/:turnId/feedback`, the branch routes (`POST /sessions/:id/turns/:turnId/regenerate`,
 * `.../edit` `{ input }`, `GET .../branches`, `POST /sessions/:id/checkout` `{ turnId }`; see `addBranchRoutes`), `GET /sessions/:id/cases?filter=all|up|down` (the session's
 * eval cases as a JSONL download), `POST /ui-chat` (the AI SDK UI message stream protocol, for `useChat`:
 * send, regenerate, tool approvals; a client that aborts it cancels its turn unless
 * `uiChat.cancelOnDisconnect` is `false`), and `GET /sessions/:id/ui-messages` (the current branch as
 * `UIMessage[]`, for `useChat({ id, messages })` after a reload). Every response is redacted: `run-update` events go out as `projectChatTrace` rows, never
 * the raw tree. On the SSE routes a client that disconnects never cancels its turn; only `/cancel` does. Bad bodies get a 4xx
 * with a JSON `{ error }`.
 *
 * @param chat The chat to serve.
 * @param options `authorize`, `basePath` and limits.
 * @example
 * const handler = createChatHandler(chat, { basePath: "/api", authorize: (req) => req.headers.get("x-key") === key });
 * await serve({ handler, port: 3000 });
 */
export function createChatHandler(chat: Chat, options: ChatHandlerOptions = {}): ChatHandler {
  const basePath = normalizeBasePath(options.basePath);
  const redaction = redactOptions(options.redact);
  const registry = new TurnRegistry({ maxEndedTurns: options.maxEndedTurns, endedTurnTtlMs: options.endedTurnTtlMs, redact: redaction });
  const turnEvents = options.turnEvents ?? memoryTurnEvents();
  const context: HandlerContext = {
    chat,
    registry,
    turnEvents,
    async track(turn) {
      const live = registry.track(turn);
      await turnEvents.publish(servedTurnOf(live));
      return live;
    },
    maxBodyBytes: positive(options.maxBodyBytes, "maxBodyBytes") ?? DEFAULT_MAX_BODY_BYTES,
    maxInputChars: positive(options.maxInputChars, "maxInputChars") ?? DEFAULT_MAX_INPUT_CHARS,
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    redact: redaction,
    uiChat: { ...options.uiChat },
  };
  const router = createRoutes(context);

  const handler: ChatHandler = async (request) => {
    try {
      if (options.authorize && !(await options.authorize(request))) throw new HttpError(401, "Unauthorized");
      const url = new URL(request.url);
      const path = stripBasePath(url.pathname, basePath);
      if (path === undefined) throw new HttpError(404, `No route for ${request.method} ${url.pathname}: this handler serves under ${basePath}`);
      const match = router.match(request.method, path);
      switch (match.kind) {
        case "found":
          return await match.handler({ request, url, params: match.params });
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
      return errorResponse(error, redaction);
    }
  };
  return options.cors ? withCors(handler, options.cors) : handler;
}

function createRoutes(context: HandlerContext): Router {
  const { chat, registry, turnEvents } = context;
  const body = (request: Request, allowEmpty = false) =>
    readJsonObject(request, { maxBytes: context.maxBodyBytes, allowEmpty });
  const control = async (turn: ServedTurn, command: TurnControl) => {
    const reply = await turn.control(command);
    return json(reply.status, reply.body);
  };

  const decide = async (turn: ServedTurn, fields: JsonObject, kind: "approve" | "deny") => {
    if (kind === "approve") {
      rejectUnknownFields(fields, ["approvalId", "remember", "sessionId"]);
      const approvalId = requireString(fields, "approvalId", { nonEmpty: true });
      const remember = optionalString(fields, "remember");
      if (remember !== undefined && remember !== "session") throw new HttpError(400, `"remember" must be "session"`);
      return control(turn, { type: "approve", approvalId, ...(remember && { remember }) });
    }
    rejectUnknownFields(fields, ["approvalId", "reason", "sessionId"]);
    const approvalId = requireString(fields, "approvalId", { nonEmpty: true });
    const reason = optionalString(fields, "reason", { maxChars: 10_000 });
    return control(turn, { type: "deny", approvalId, ...(reason !== undefined && { reason }) });
  };
  /** A live turn (here or elsewhere), else, with `sessionId` in the body, a suspended one resumed here. */
  const decidable = async (turnId: string, fields: JsonObject): Promise<ServedTurn> => {
    const live = await findServed(context, turnId, { running: true });
    if (live) return live;
    const sessionId = optionalString(fields, "sessionId");
    // Without its session, as before: a turn that ended here answers 409, an unknown one 404.
    if (sessionId === undefined) return servedTurn(context, turnId);
    return resumeServed(context, sessionId, turnId);
  };

  return addDurableRoutes(addBranchRoutes(new Router(), context), context, {
    body: (request) => body(request),
    decide,
    find: (turnId) => findServed(context, turnId, { running: true }),
  })
    .on("GET", "/sessions", async ({ url }) => {
      const sessions = await chat.listSessions(listOptions(url));
      return json(200, { sessions: redact(sessions, context.redact) });
    })
    .on("POST", "/sessions", async ({ request }) => {
      const input = await body(request, true);
      rejectUnknownFields(input, ["id", "metadata"]);
      const id = optionalString(input, "id");
      const metadata = optionalObject(input, "metadata");
      const session = await chat.createSession({ ...(id !== undefined && { id }), ...(metadata && { metadata }) });
      const info = await chat.store.getSession(session.id);
      return json(201, redact(info ?? { id: session.id }, context.redact));
    })
    .on("GET", "/sessions/:id", async ({ params }) => {
      const session = await chat.openSession(params.id);
      const turns = await session.turns();
      const runningTurnId = (await runningTurn(session, context))?.id ?? (await elsewhere(() => turnEvents.runningTurnId(session.id)));
      const pendingApprovals = await pendingApprovalsOf(session, turns, context.redact);
      // Served with the session so a client shows "2 / 3" by its turns without asking per turn.
      const branches = await session.alternatives();
      const hasBranches = Object.keys(branches).length > 0;
      return json(
        200,
        redact(
          {
            id: session.id,
            turns,
            ...(runningTurnId !== undefined && { runningTurnId }),
            ...(pendingApprovals && { pendingApprovals }),
            ...(hasBranches && { branches }),
          },
          context.redact,
        ),
      );
    })
    .on("PUT", "/sessions/:id/title", async ({ request, params }) => {
      const fields = await body(request);
      rejectUnknownFields(fields, ["title"]);
      const title = requireString(fields, "title", { nonEmpty: true, maxChars: 10_000 });
      const session = await chat.openSession(params.id);
      await withInputErrors(() => session.rename(title));
      const info = await chat.store.getSession(session.id);
      return json(200, redact(info ?? { id: session.id }, context.redact));
    })
    .on("DELETE", "/sessions/:id", async ({ params }) => {
      const deleted = await chat.deleteSession(params.id);
      if (!deleted) throw new HttpError(404, `No session "${params.id}"`);
      registry.forgetSession(params.id);
      return json(200, { deleted: true });
    })
    .on("POST", "/sessions/:id/turns", async ({ request, params }) => {
      const fields = await body(request);
      rejectUnknownFields(fields, ["input"]);
      const input = requireString(fields, "input", { nonEmpty: true, maxChars: context.maxInputChars });
      const session = await chat.openSession(params.id);
      return startTurnResponse(request, context, () => session.send(input));
    })
    .on("POST", "/sessions/:id/turns/:turnId/feedback", async ({ request, params }) => {
      const fields = await body(request);
      rejectUnknownFields(fields, ["score", "comment", "tags"]);
      const feedback = feedbackFields(fields);
      const session = await chat.openSession(params.id);
      const give = (session as Session & { feedback?: (turnId: string, feedback: unknown) => unknown }).feedback;
      if (typeof give !== "function") throw new HttpError(501, "This chat's sessions do not take feedback");
      await withInputErrors(() => give.call(session, params.turnId, feedback));
      return json(200, { ok: true });
    })
    .on("GET", "/sessions/:id/cases", (route: RouteContext) => handleSessionCases(route, context))
    .on("GET", "/sessions/:id/ui-messages", (route: RouteContext) => handleUiMessages(route, context))
    .on("GET", "/turns/:id/events", async ({ request, url, params }) => {
      // `?missing=empty`: a client that only asks whether a turn's events are still here (a page reload
      // recovering traces) gets 204 for one that is gone, rather than a 404 it would log as an error.
      const turn = await servedTurn(context, params.id).catch((error: unknown) => {
        if (HttpError.isInstance(error) && error.status === 404 && url.searchParams.get("missing") === "empty") return undefined;
        throw error;
      });
      if (!turn) return new Response(null, { status: 204 });
      const from = replayStart(request, url);
      return turnEventsResponse(turn, { from, signal: request.signal, keepAliveMs: context.keepAliveMs });
    })
    .on("POST", "/turns/:id/approve", async ({ request, params }) => {
      const fields = await body(request);
      return decide(await decidable(params.id, fields), fields, "approve");
    })
    .on("POST", "/turns/:id/deny", async ({ request, params }) => {
      const fields = await body(request);
      return decide(await decidable(params.id, fields), fields, "deny");
    })
    .on("POST", "/turns/:id/cancel", async ({ request, params }) => {
      const turn = await servedTurn(context, params.id);
      rejectUnknownFields(await body(request, true), []);
      return control(turn, { type: "cancel" });
    })
    .on("POST", "/turns/:id/steer", async ({ request, params }) => {
      const turn = await servedTurn(context, params.id);
      const fields = await body(request);
      rejectUnknownFields(fields, ["input"]);
      const input = requireString(fields, "input", { nonEmpty: true, maxChars: context.maxInputChars });
      return control(turn, { type: "steer", input });
    })
    .on("POST", "/ui-chat", (route: RouteContext) => handleUiChat(route, context));
}

/** The session's running turn in this process, tracked so its events can be rejoined (started here or elsewhere in-process). */
async function runningTurn(session: Session, context: HandlerContext): Promise<LiveTurn | undefined> {
  const turn = session.currentTurn;
  return turn && turn.status === "running" ? context.track(turn) : undefined;
}

/** A turn this process runs, else one another process runs (through `turnEvents`); 404 when none has it. */
async function servedTurn(context: HandlerContext, turnId: string): Promise<ServedTurn> {
  const found = await findServed(context, turnId);
  if (!found) throw new HttpError(404, `No live or recent turn "${turnId}"`);
  return found;
}

/**
 * A turn this process runs, else one another process runs (through `turnEvents`), if any. With `running`, a
 * turn that ended (a suspended one, kept for replay) or whose process died does not count: it can only be resumed.
 */
export async function findServed(context: HandlerContext, turnId: string, options: { running?: boolean } = {}): Promise<ServedTurn | undefined> {
  const live = context.registry.get(turnId);
  if (live && !(options.running && live.ended)) return servedTurnOf(live);
  if (live) return undefined;
  return (await elsewhere(() => context.turnEvents.find(turnId, options))) ?? undefined;
}

/** Asks the other processes (through `turnEvents`); a bus that cannot answer is a 503, not a 500. */
async function elsewhere<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    throw new HttpError(503, "The turns of other processes cannot be reached right now", { cause: error });
  }
}

/** The index after `Last-Event-ID` (header, or `lastEventId` query for clients that cannot set headers). */
function replayStart(request: Request, url: URL): number {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId");
  if (raw === null || raw.trim() === "") return 0;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new HttpError(400, `Last-Event-ID must be an event index, got "${raw.slice(0, 32)}"`);
  return Number(raw.trim()) + 1;
}

function listOptions(url: URL): ListSessionsOptions {
  const options: ListSessionsOptions = {};
  const limit = url.searchParams.get("limit");
  if (limit !== null) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIST_LIMIT) {
      throw new HttpError(400, `"limit" must be an integer from 1 to ${MAX_LIST_LIMIT}, got "${limit.slice(0, 32)}"`);
    }
    options.limit = n;
  }
  const before = url.searchParams.get("before");
  if (before !== null) {
    if (Number.isNaN(Date.parse(before))) throw new HttpError(400, `"before" must be an ISO time, got "${before.slice(0, 64)}"`);
    options.before = before;
  }
  return options;
}

function feedbackFields(fields: JsonObject): { score: number; comment?: string; tags?: string[] } {
  const score = fields.score;
  if (typeof score !== "number" || !Number.isFinite(score)) throw new HttpError(400, `"score" must be a number`);
  const feedback: { score: number; comment?: string; tags?: string[] } = { score };
  const comment = optionalString(fields, "comment", { maxChars: 10_000 });
  if (comment !== undefined) feedback.comment = comment;
  const tags = fields.tags;
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) throw new HttpError(400, `"tags" must be an array of strings`);
    feedback.tags = tags;
  }
  return feedback;
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
