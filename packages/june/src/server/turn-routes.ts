import { optionalString, rejectUnknownFields } from "./body.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import { type RouteHandler, Router } from "./router.js";
import { turnEventsResponse } from "./sse.js";
import { applyControl, decisionOf, resumeServed, answerOf } from "./turn-control.js";
import type { SessionAccess } from "./session-access.js";
import type { ServedTurn } from "./turn-event-bus.js";

/**
 * The routes of one turn, wherever it runs (mounted under `/turns`): `GET /:turnId/events` (its events as SSE,
 * from the start or after `Last-Event-ID`), and `POST /:turnId/approve|deny|cancel|steer`. A turn no process
 * has, or one of a session that is not the caller's (`SessionAccess.find`), is a 404; a control the turn
 * cannot take, the status of its typed error (409 for a decided approval or an ended turn).
 */
export function turnRoutes(context: HandlerContext): Router {
  /** A live turn (here or elsewhere), else, with `sessionId` in the body, a suspended one resumed here. */
  const decidable = async (access: SessionAccess, turnId: string, fields: Record<string, unknown>): Promise<ServedTurn> => {
    const live = await access.find(turnId, { running: true });
    if (live) return live;
    const sessionId = optionalString(fields, "sessionId");
    // Without its session, as before: a turn that ended here answers 409, an unknown one 404.
    if (sessionId === undefined) return access.served(turnId);
    // The body names the session: it must be the caller's, as a path's would.
    await access.check(sessionId);
    return resumeServed(context, sessionId, turnId);
  };
  const decide = (kind: "approve" | "deny"): RouteHandler => async ({ request, params, access }) => {
    const fields = await context.body(request);
    // The turn first: an unknown one is a 404 whatever the body says.
    const turn = await decidable(access, params.turnId, fields);
    return applyControl(context, turn, decisionOf(fields, kind));
  };

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
    })
    .on("POST", "/:turnId/approve", decide("approve"))
    .on("POST", "/:turnId/deny", decide("deny"))
    .on("POST", "/:turnId/answer", async ({ request, params, access }) => {
      const fields = await context.body(request);
      const turn = await decidable(access, params.turnId, fields);
      return applyControl(context, turn, answerOf(fields));
    })
    .on("POST", "/:turnId/cancel", async ({ request, params, access }) => {
      const turn = await access.served(params.turnId);
      rejectUnknownFields(await context.body(request, { allowEmpty: true }), []);
      return applyControl(context, turn, { type: "cancel" });
    })
    .on("POST", "/:turnId/steer", async ({ request, params, access }) => {
      const turn = await access.served(params.turnId);
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["input"]);
      return applyControl(context, turn, { type: "steer", input: context.input(fields) });
    });
}

/** The index after `Last-Event-ID` (header, or `lastEventId` query for clients that cannot set headers). */
function replayStart(request: Request, url: URL): number {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId");
  if (raw === null || raw.trim() === "") return 0;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new HttpError(400, `Last-Event-ID must be an event index, got "${raw.slice(0, 32)}"`);
  return Number(raw.trim()) + 1;
}
