import { ApprovalNotPendingError, TurnNotFoundError, TurnNotResumableError } from "../errors.js";
import type { PendingApproval, Session, Turn } from "../types.js";
import { isUnfinished } from "../unfinished.js";
import type { QueueDecision, TurnQueue } from "../queue/queue.js";

/**
 * The session's method a worker runs a queued turn with: `session[startQueuedTurn](turnId, input)` starts the
 * turn under the id it was enqueued with. Keyed by a symbol so it is no part of the `Session` interface.
 */
export const startQueuedTurn: unique symbol = Symbol.for("june.startQueuedTurn");

/**
 * The session's method the server decides a suspended durable turn with when the chat has a queue:
 * `session[enqueueDecision](turnId, decision)` checks the decision names a request the turn waits on and puts
 * the turn's resume, with the decision, on the queue (a worker resumes the turn and applies it). Resolves to
 * `undefined` when the chat has no queue (the decision is then taken where it was asked).
 */
export const enqueueDecision: unique symbol = Symbol.for("june.enqueueDecision");

/**
 * The session's method a worker restarts a durable turn with that died before its first checkpoint:
 * `session[restartTurn](turnId)` (see `RestartableTurns`).
 */
export const restartTurn: unique symbol = Symbol.for("june.restartTurn");

/** A session that runs queued turns (every session a chat opens). */
export interface QueuedTurnStarter {
  [startQueuedTurn](turnId: string, input: string): Turn;
  [enqueueDecision](turnId: string, decision: QueueDecision): Promise<{ turnId: string } | undefined>;
  /**
   * Runs again, from its start and under its id, a durable turn that started and never ended and has no
   * checkpoint (its process died before the first one was stored: no approved tool ran). Resolves to the
   * live turn; `TurnNotResumableError` when the turn ended, has a checkpoint (resume it) or is not durable.
   */
  [restartTurn](turnId: string): Promise<Turn>;
}

/**
 * `session[enqueueDecision]`: the decision is checked against the requests the suspended turn waits on (its
 * checkpoint's), as the live turn would check it (`ApprovalNotPendingError` for one it does not wait on), then
 * queued; what only the turn can check (an edited input's schema, the guardrails) is checked on the worker.
 */
export async function queueDecision(session: Session, queue: TurnQueue | undefined, turnId: string, decision: QueueDecision): Promise<{ turnId: string } | undefined> {
  if (!queue) return undefined;
  const record = (await session.branches(turnId)).find((t) => t.id === turnId);
  if (!record) throw new TurnNotFoundError(session.id, turnId);
  if (!isUnfinished(record.status)) throw new TurnNotResumableError(session.id, turnId, `it is ${record.status}`);
  const requestId = decision.type === "answer" ? decision.requestId : decision.approvalId;
  const pending: PendingApproval[] = await session.pendingApprovals();
  if (!pending.some((p) => p.turnId === turnId && p.id === requestId)) throw new ApprovalNotPendingError({ turnId, approvalId: requestId });
  await queue.enqueue({ kind: "resume", sessionId: session.id, turnId, decisions: [decision] });
  return { turnId };
}
