import { redact, type TextRedactOptions } from "../redaction/redact.js";
import { projectPendingApprovals, type ChatTraceRow } from "../chat/trace/project-chat-trace.js";
import { approvalView, type ApprovalView } from "../chat/trace/approval-view.js";
import type { Session, TurnRecord } from "../chat/types.js";
import type { HandlerContext } from "./handler-context.js";
import { HttpError } from "./http-error.js";
import { type RouteHandler, Router } from "./router.js";
import { turnEventsResponse } from "./sse.js";
import { rejectUnknownFields } from "./body.js";
import { applyControl, cancelParked, decisionOf, resumeServed, answerOf } from "./turn-control.js";
import type { ServedTurn } from "./turn-event-bus.js";
import { enqueueDecision, type QueuedTurnStarter } from "../chat/internal/queued-turn.js";
import type { QueueDecision } from "../chat/queue/queue.js";

/**
 * The requests a session's unfinished durable turns wait on, for `GET /sessions/:id`: as a person sees them
 * (`approvalView`), and as trace rows by turn (`projectPendingApprovals`, what a client draws when it has not
 * the turn's trace). None read (no store call) when no turn is suspended or resumable.
 */
export async function pendingApprovalsOf(
  session: Session,
  turns: readonly TurnRecord[],
  redaction: TextRedactOptions = {},
): Promise<{ views: ApprovalView[]; rows: Record<string, ChatTraceRow[]> } | undefined> {
  if (!turns.some((turn) => turn.status === "suspended" || turn.resumable === true)) return undefined;
  const pending = await session.pendingApprovals();
  const rows: Record<string, ChatTraceRow[]> = {};
  for (const request of pending) (rows[request.turnId] ??= []).push(...projectPendingApprovals([request]));
  const own = (value: Record<string, ChatTraceRow[]>) => (redaction.patterns?.length ? redact(value, redaction) : value);
  return { views: pending.map((request) => approvalView(request, redaction)), rows: own(rows) };
}

/**
 * The durable-turn routes (mounted under `/sessions`): `POST /:id/turns/:turnId/resume` (the resumed turn's
 * events as SSE, from its first; a turn running already, in any process, is followed instead), `POST /:id/turns/:turnId/approve|deny` (`{ approvalId, remember? }` /
 * `{ approvalId, reason? }`), which decide a live turn, wherever it runs, or resume a suspended one here first
 * (with a queue, on a worker: 202),
 * `POST /:id/turns/:turnId/answer` (`{ requestId, value }`), `POST /:id/turns/:turnId/steer` (`{ input }`), which
 * steers a live turn wherever it runs (a turn no process has is a 404, one that ended a 409), and
 * `POST /:id/turns/:turnId/cancel`, which cancels a live turn wherever it runs, or ends a suspended (or
 * interrupted) one without running anything: journaled `canceled`, its checkpoint deleted (`session.cancel`).
 * Each control has this one route; a turn of another session (another user's, running or not) is answered
 * exactly as a turn that does not exist: the same status, the same body.
 */
export function durableRoutes(context: HandlerContext): Router {
  /** The session's turn running in any process; another session's is none (answered as a turn that does not exist). */
  const running = async (sessionId: string, turnId: string): Promise<ServedTurn | undefined> => {
    const live = await context.find(turnId, { running: true });
    return live && live.sessionId === sessionId ? live : undefined;
  };
  const liveOrResumed = async (sessionId: string, turnId: string): Promise<ServedTurn> =>
    (await running(sessionId, turnId)) ?? resumeServed(context, sessionId, turnId);
  /** The session's turn, live or recent, in any process (not resumed): a 404 for none, or another session's. */
  const served = async (sessionId: string, turnId: string): Promise<ServedTurn> => {
    const turn = await context.find(turnId);
    if (!turn || turn.sessionId !== sessionId) throw new HttpError(404, `Session "${sessionId}" has no live or recent turn "${turnId}"`);
    return turn;
  };
  /**
   * A decision: applied to the turn where it runs; a suspended turn of a chat with a queue is resumed on a worker
   * with it (202 `{ sessionId, turnId }`, as a background turn: docs/workers.md), else resumed here and decided.
   */
  const decided = async (sessionId: string, turnId: string, command: QueueDecision): Promise<Response> => {
    const live = await running(sessionId, turnId);
    if (live) return applyControl(context, live, command);
    const session = (await context.chat.openSession(sessionId)) as Session & QueuedTurnStarter;
    const queued = typeof session[enqueueDecision] === "function" ? await session[enqueueDecision](turnId, command) : undefined;
    if (queued) return context.json(202, { sessionId, ...queued });
    return applyControl(context, await resumeServed(context, sessionId, turnId), command);
  };
  const decide = (kind: "approve" | "deny"): RouteHandler => async ({ request, params }) => {
    // A bad body is a 400 before the turn is looked for (or resumed).
    const command = decisionOf(await context.body(request), kind) as QueueDecision;
    return decided(params.id, params.turnId, command);
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
    .on("POST", "/:id/turns/:turnId/answer", async ({ request, params }) => {
      return decided(params.id, params.turnId, answerOf(await context.body(request)) as QueueDecision);
    })
    .on("POST", "/:id/turns/:turnId/steer", async ({ request, params }) => {
      const fields = await context.body(request);
      rejectUnknownFields(fields, ["input"]);
      const input = context.input(fields);
      return applyControl(context, await served(params.id, params.turnId), { type: "steer", input });
    })
    .on("POST", "/:id/turns/:turnId/cancel", async ({ request, params }) => {
      rejectUnknownFields(await context.body(request, { allowEmpty: true }), []);
      const live = await running(params.id, params.turnId);
      if (live) return applyControl(context, live, { type: "cancel" });
      // Not running anywhere: ended under the session's lease (busy, 409, while a process resumes it).
      await cancelParked(context, params.id, params.turnId);
      return context.json(200, { ok: true });
    });
}
