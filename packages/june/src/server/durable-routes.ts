import { redact, type TextRedactOptions } from "../redaction/redact.js";
import { excerpt } from "../chat/trace/excerpt.js";
import type { PendingApproval, Session, TurnRecord } from "../chat/types.js";
import type { HandlerContext } from "./create-chat-handler.js";
import { HttpError } from "./http-error.js";
import type { Router } from "./router.js";
import { turnEventsResponse } from "./sse.js";
import { servedTurnOf } from "./turn-control.js";
import type { ServedTurn } from "./turn-event-bus.js";

/** A pending request as the HTTP API shows it: the input excerpted and redacted, as in trace rows. */
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
 * Resumes a suspended (or interrupted, resumable) turn of the session in this process and tracks it, so its
 * events can be followed and it can be approved, denied, canceled and steered like any live turn.
 */
export async function resumeServed(context: HandlerContext, sessionId: string, turnId: string): Promise<ServedTurn> {
  const session = await context.chat.openSession(sessionId);
  const turn = await session.resume(turnId);
  return servedTurnOf(await context.track(turn));
}

/**
 * The durable-turn routes: `POST /sessions/:id/turns/:turnId/resume` (the resumed turn's events as SSE, from
 * its first), and `POST /sessions/:id/turns/:turnId/approve|deny` (`{ approvalId, remember? }` /
 * `{ approvalId, reason? }`), which decide a live turn, wherever it runs, or resume a suspended one here first.
 */
export function addDurableRoutes(
  router: Router,
  context: HandlerContext,
  helpers: {
    body: (request: Request) => Promise<Record<string, unknown>>;
    decide: (turn: ServedTurn, fields: Record<string, unknown>, kind: "approve" | "deny") => Promise<Response>;
    find: (turnId: string) => Promise<ServedTurn | undefined>;
  },
): Router {
  const liveOrResumed = async (sessionId: string, turnId: string): Promise<ServedTurn> => {
    const live = await helpers.find(turnId);
    if (live && live.sessionId !== sessionId) throw new HttpError(404, `Session "${sessionId}" has no turn "${turnId}"`);
    return live ?? resumeServed(context, sessionId, turnId);
  };
  return router
    .on("POST", "/sessions/:id/turns/:turnId/resume", async ({ request, params }) => {
      const session = await context.chat.openSession(params.id);
      const turn = await session.resume(params.turnId);
      const live = await context.track(turn);
      return turnEventsResponse(live, { from: 0, signal: request.signal, keepAliveMs: context.keepAliveMs });
    })
    .on("POST", "/sessions/:id/turns/:turnId/approve", async ({ request, params }) => {
      const fields = await helpers.body(request);
      return helpers.decide(await liveOrResumed(params.id, params.turnId), fields, "approve");
    })
    .on("POST", "/sessions/:id/turns/:turnId/deny", async ({ request, params }) => {
      const fields = await helpers.body(request);
      return helpers.decide(await liveOrResumed(params.id, params.turnId), fields, "deny");
    });
}
