import { excerpt } from "../redaction/excerpt.js";
import { redact, type TextRedactOptions } from "../redaction/redact.js";
import type { PendingApproval, Session, TurnRecord } from "../chat/types.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import { type RouteHandler, Router } from "./router.js";
import { turnEventsResponse } from "./sse.js";
import { rejectUnknownFields } from "./body.js";
import { applyControl, cancelParked, decisionOf, resumeServed } from "./turn-control.js";
import type { ServedTurn } from "./turn-event-bus.js";

/** A pending request as the HTTP API shows it: the input redacted and excerpted, as in trace rows. */
export interface PendingApprovalView {
  turnId: string;
  id: string;
  toolName: string;
  toolCallId: string;
  input: string;
  retry?: boolean;
}

/**
 * The requests a session's unfinished durable turns wait on, for `GET /sessions/:id`; none read (no store
 * call) when no turn is suspended or resumable.
 */
export async function pendingApprovalsOf(
  session: Session,
  turns: readonly TurnRecord[],
  redaction: TextRedactOptions = {},
): Promise<PendingApprovalView[] | undefined> {
  if (!turns.some((turn) => turn.status === "suspended" || turn.resumable === true)) return undefined;
  const pending = await session.pendingApprovals();
  return pending.map((request) => viewOf(request, redaction));
}

/** Redacted before it is excerpted: an excerpt cut through a credential would no longer look like one. */
function viewOf(request: PendingApproval, redaction: TextRedactOptions): PendingApprovalView {
  return {
    turnId: request.turnId,
    id: request.id,
    toolName: request.toolName,
    toolCallId: request.toolCallId,
    input: excerpt(redact(request.input, redaction)),
    ...(request.retry ? { retry: true } : {}),
  };
}

/**
 * The durable-turn routes (mounted under `/sessions`): `POST /:id/turns/:turnId/resume` (the resumed turn's
 * events as SSE, from its first; a turn running already, in any process, is followed instead), `POST /:id/turns/:turnId/approve|deny` (`{ approvalId, remember? }` /
 * `{ approvalId, reason? }`), which decide a live turn, wherever it runs, or resume a suspended one here first,
 * and `POST /:id/turns/:turnId/cancel`, which cancels a live turn wherever it runs, or ends a suspended (or
 * interrupted) one without running anything: journaled `canceled`, its checkpoint deleted (`session.cancel`).
 */
export function durableRoutes(context: HandlerContext): Router {
  const liveOrResumed = async (sessionId: string, turnId: string): Promise<ServedTurn> => {
    const live = await context.find(turnId, { running: true });
    if (live && live.sessionId !== sessionId) throw new HttpError(404, `Session "${sessionId}" has no turn "${turnId}"`);
    return live ?? resumeServed(context, sessionId, turnId);
  };
  const decide = (kind: "approve" | "deny"): RouteHandler => async ({ request, params }) => {
    // A bad body is a 400 before the turn is looked for (or resumed).
    const command = decisionOf(await context.body(request), kind);
    const turn = await liveOrResumed(params.id, params.turnId);
    return applyControl(context, turn, command);
  };
  return new Router()
    .on("POST", "/:id/turns/:turnId/resume", async ({ request, params }) => {
      // Running already, here or in another process (which resumed it first): its events, as `session.resume`
      // resolves to a turn running in its own process.
      const turn = await liveOrResumed(params.id, params.turnId);
      return turnEventsResponse(turn, { from: 0, signal: request.signal, keepAliveMs: context.keepAliveMs });
    })
    .on("POST", "/:id/turns/:turnId/approve", decide("approve"))
    .on("POST", "/:id/turns/:turnId/deny", decide("deny"))
    .on("POST", "/:id/turns/:turnId/cancel", async ({ request, params }) => {
      rejectUnknownFields(await context.body(request, { allowEmpty: true }), []);
      const live = await context.find(params.turnId, { running: true });
      if (live && live.sessionId !== params.id) throw new HttpError(404, `Session "${params.id}" has no turn "${params.turnId}"`);
      if (live) return applyControl(context, live, { type: "cancel" });
      // Not running anywhere: ended under the session's lease (busy, 409, while a process resumes it).
      await cancelParked(context, params.id, params.turnId);
      return context.json(200, { ok: true });
    });
}
