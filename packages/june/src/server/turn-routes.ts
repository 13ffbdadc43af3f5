import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import { Router } from "./router.js";
import { turnEventsResponse } from "./sse.js";

/**
 * The routes of one turn, wherever it runs (mounted under `/turns`): `GET /:turnId/events` (its events as SSE,
 * from the start or after `Last-Event-ID`). Its controls are the session's routes
 * (`POST /sessions/:id/turns/:turnId/approve|deny|answer|steer|cancel`), one route each. A turn no process
 * has, or one of a session that is not the caller's (`SessionAccess.find`), is a 404.
 */
export function turnRoutes(context: HandlerContext): Router {
  return new Router()
    .on("GET", "/:turnId/events", async ({ request, url, params, access }) => {
      // `?missing=empty`: a client that only asks whether a turn's events are still here (a page reload
      // recovering traces) gets 204 for one that is gone, rather than a 404 it would log as an error.
      const turn = await access.served(params.turnId).catch((error: unknown) => {
        if (HttpError.isInstance(error) && error.status === 404 && url.searchParams.get("missing") === "empty") return undefined;
        throw error;
      });
      if (!turn) return new Response(null, { status: 204 });
      const from = replayStart(request, url);
      return turnEventsResponse(turn, { from, signal: request.signal, keepAliveMs: context.keepAliveMs });
    });
}

/** The index after `Last-Event-ID` (header, or `lastEventId` query for clients that cannot set headers). */
function replayStart(request: Request, url: URL): number {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId");
  if (raw === null || raw.trim() === "") return 0;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new HttpError(400, `Last-Event-ID must be an event index, got "${raw.slice(0, 32)}"`);
  return Number(raw.trim()) + 1;
}
