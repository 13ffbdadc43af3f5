import { HttpError } from "./http-error.js";
import type { SessionAccess } from "./session-access.js";

/** What a route's handler receives. */
export interface RouteContext {
  request: Request;
  url: URL;
  /**
   * The pattern's `:name` segments, URI-decoded. `:id` (or `:sessionId`, `:chatId`: `SESSION_PARAMS`) names a
   * session, checked to be the caller's before the route runs; `:turnId` names a turn.
   */
  params: Record<string, string>;
  /** The caller's sessions and turns: where a route opens, creates, lists and finds them. */
  access: SessionAccess;
}

/** A route as `Router.routes` lists it: its method and its full pattern. */
export interface RouteEntry {
  method: HttpMethod;
  pattern: string;
}

export type RouteHandler = (context: RouteContext) => Promise<Response>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Route {
  method: HttpMethod;
  segments: readonly string[];
  handler: RouteHandler;
}

/** The result of matching a path: a handler, a 405 with the allowed methods, or nothing (404). */
export type RouteMatch =
  | { kind: "found"; handler: RouteHandler; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: HttpMethod[] }
  | { kind: "not-found" };

/**
 * A small path router: patterns such as `/sessions/:id/turns`, one handler per method and pattern.
 * A path that matches a pattern under another method is a 405, not a 404.
 */
export class Router {
  readonly #routes: Route[] = [];

  /** Adds a route; returns the router for chaining. */
  on(method: HttpMethod, pattern: string, handler: RouteHandler): this {
    this.#routes.push({ method, segments: split(pattern), handler });
    return this;
  }

  /**
   * Mounts a group of routes under `prefix` (Hono's `app.route("/books", books)`): each of the group's
   * patterns is matched as `prefix` + pattern, so a group is written, and tested, on its own.
   *
   * @example
   * new Router().route("/sessions", sessionRoutes(context)).route("/turns", turnRoutes(context));
   */
  route(prefix: string, group: Router): this {
    const head = split(prefix);
    for (const route of group.#routes) this.#routes.push({ ...route, segments: [...head, ...route.segments] });
    return this;
  }

  /** Every route, in the order they are matched (what a test walks to check each of them). */
  routes(): RouteEntry[] {
    return this.#routes.map((route) => ({ method: route.method, pattern: `/${route.segments.join("/")}` }));
  }

  match(method: string, path: string): RouteMatch {
    const segments = split(path);
    const allowed: HttpMethod[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method || (method === "HEAD" && route.method === "GET")) {
        return { kind: "found", handler: route.handler, params };
      }
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "method-not-allowed", allowed } : { kind: "not-found" };
  }
}

function split(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i];
    const actual = path[i];
    if (expected.startsWith(":")) {
      params[expected.slice(1)] = decodeSegment(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `Malformed path segment "${segment.slice(0, 64)}"`);
  }
}
