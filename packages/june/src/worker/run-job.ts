import { SessionBusyError, SessionNotFoundError } from "../stores/errors.js";
import { TurnNotFoundError, TurnNotResumableError } from "../chat/errors.js";
import { restartTurn, startQueuedTurn, type QueuedTurnStarter } from "../chat/internal/queued-turn.js";
import type { Chat, Session, Turn, TurnRecord } from "../chat/types.js";
import { isUnfinished } from "../chat/unfinished.js";
import { turnJobId } from "./job-ids.js";
import type { QueueJob, ResumeJob, ScheduledJob, TurnJob, TurnQueue } from "../chat/queue/queue.js";

/** What a job's run needs: the chat, its queue, and when to stop waiting on a busy session. */
export interface JobContext {
  chat: Chat;
  queue: TurnQueue;
  signal: AbortSignal;
  /** The job's id on the queue (a scheduled run's turn and new session are named after it). */
  jobId: string;
  /** How long to wait between tries on a session whose lease another process holds (a dead worker's, until it expires). */
  retryMs: number;
  /** The longest a job waits on a busy session before it gives up (the queue runs it again later). */
  maxWaitMs: number;
  /** Shares each turn the job runs (its events and controls) with other processes: the worker's `turnEvents`. */
  publish?: (turn: Turn) => Promise<void>;
}

/** What became of a job: the turn it ran or took over, and how. */
export type JobOutcome =
  | { kind: "ran"; sessionId: string; turnId: string; status: string }
  | { kind: "resumed"; sessionId: string; turnId: string; status: string; refused?: string[] }
  | { kind: "restarted"; sessionId: string; turnId: string; status: string }
  | { kind: "left"; sessionId: string; turnId: string; status: string; why: string }
  | { kind: "enqueued"; sessionId: string; turnId: string; scheduleId: string }
  | { kind: "dropped"; why: string };

/**
 * Runs one job to its end. A turn the journal does not know yet is started with its enqueued id; one that
 * ended (another worker ran it) is left alone, so a job run twice runs its turn once; one that started and
 * never ended (its worker died) is resumed from its checkpoint when it has one, run again from its start when
 * it is durable and died before its first checkpoint (`restartTurn`), else left `interrupted`.
 * A session another process holds is waited on (a dead worker's lease expires); failures of the turn are
 * journaled on the turn, not thrown: only the queue or the store failing rejects (the queue retries).
 */
export async function runJob(job: QueueJob, context: JobContext): Promise<JobOutcome> {
  if (job.kind === "scheduled") return enqueueScheduled(job, context);
  const session = await openOrNull(context.chat, job.sessionId);
  if (!session) return { kind: "dropped", why: `session "${job.sessionId}" no longer exists` };
  return job.kind === "turn" ? runTurnJob(session, job, context) : resumeJob(session, job, context);
}

async function runTurnJob(session: Session, job: TurnJob, context: JobContext): Promise<JobOutcome> {
  const deadline = Date.now() + context.maxWaitMs;
  for (;;) {
    const record = await recordOf(session, job.turnId);
    if (record && !isUnfinished(record.status)) return { kind: "left", sessionId: session.id, turnId: job.turnId, status: record.status, why: "it had ended" };
    if (record) return takeOver(session, record, context, deadline);
    let error: unknown;
    try {
      const turn = (session as Session & QueuedTurnStarter)[startQueuedTurn](job.turnId, job.input);
      if (context.publish && (await hasStarted(turn))) await context.publish(turn);
      error = await settled(turn);
    } catch (thrown) {
      // Busy in this process, or waiting on a suspended turn's decision: nothing started, so wait like a busy lease.
      if (!SessionBusyError.isInstance(thrown)) throw thrown;
      error = thrown;
    }
    const after = await recordOf(session, job.turnId);
    if (!SessionBusyError.isInstance(error) || after) return { kind: "ran", sessionId: session.id, turnId: job.turnId, status: after?.status ?? "failed" };
    await waitOrGiveUp(error, deadline, context);
  }
}

/** A turn that started elsewhere and never ended: resumed from its checkpoint, or left `interrupted`. */
async function takeOver(session: Session, record: TurnRecord, context: JobContext, deadline: number): Promise<JobOutcome> {
  if (record.status === "suspended") return { kind: "left", sessionId: session.id, turnId: record.id, status: "suspended", why: "it waits on a decision" };
  // A turn with no checkpoint (not durable) cannot be resumed: resume() says so, and it stays `interrupted`.
  return resumeUntilDone(session, record.id, context, deadline);
}

/** A decision on a suspended turn: resumed here, the decisions applied (one the turn refuses leaves its request pending). */
async function resumeJob(session: Session, job: ResumeJob, context: JobContext): Promise<JobOutcome> {
  return resumeUntilDone(session, job.turnId, context, Date.now() + context.maxWaitMs, job.decisions ?? []);
}

async function resumeUntilDone(session: Session, turnId: string, context: JobContext, deadline: number, decisions: ResumeJob["decisions"] & {} = []): Promise<JobOutcome> {
  let restarted = false;
  for (;;) {
    let turn: Turn;
    try {
      turn = restarted ? await (session as Session & QueuedTurnStarter)[restartTurn](turnId) : await session.resume(turnId);
    } catch (error) {
      if (!restarted && TurnNotResumableError.isInstance(error) && decisions.length === 0 && (await noCheckpoint(session, turnId))) {
        // Died before its first checkpoint: a durable turn runs again from its start (no approved tool ran).
        restarted = true;
        continue;
      }
      if (TurnNotResumableError.isInstance(error) || TurnNotFoundError.isInstance(error)) {
        const record = await recordOf(session, turnId);
        return { kind: "left", sessionId: session.id, turnId, status: record?.status ?? "unknown", why: (error as Error).message };
      }
      if (!SessionBusyError.isInstance(error)) throw error;
      await waitOrGiveUp(error, deadline, context);
      continue;
    }
    await context.publish?.(turn);
    const refused: string[] = [];
    for (const decision of decisions) {
      await turn.control(decision).catch((error: unknown) => refused.push(`${decision.type}: ${(error as Error).message}`));
    }
    await settled(turn);
    const status = (await recordOf(session, turnId))?.status ?? "unknown";
    if (restarted) return { kind: "restarted", sessionId: session.id, turnId, status };
    return { kind: "resumed", sessionId: session.id, turnId, status, ...(refused.length > 0 ? { refused } : {}) };
  }
}

/**
 * True when a turn `resume` refused is one that may have died before its first checkpoint: `interrupted` (the
 * restart itself checks, under the lease, that the chat is durable and there is no checkpoint).
 */
async function noCheckpoint(session: Session, turnId: string): Promise<boolean> {
  return (await recordOf(session, turnId))?.status === "interrupted";
}

/**
 * Whether a queued turn started (its first event, or its end for any reason but a busy session, where nothing
 * started): only a started turn is shared on the bus, so a retried start is not seen failing.
 */
async function hasStarted(turn: Turn): Promise<boolean> {
  const events = turn[Symbol.asyncIterator]();
  const first = await Promise.race([events.next(), turn.result.then(() => undefined, () => undefined)]);
  void events.return?.();
  if (first && first.done !== true) return true;
  return turn.result.then(() => true, (error: unknown) => !SessionBusyError.isInstance(error));
}

/**
 * A schedule's run: its turn goes on the turns queue (after the session's earlier turns), named after the run's
 * job, in a session named after it too for `session: "new"`, so a run taken over is enqueued once.
 */
async function enqueueScheduled(job: ScheduledJob, context: JobContext): Promise<JobOutcome> {
  const { chat } = context;
  let sessionId = job.session;
  if (sessionId === "new") {
    sessionId = `scheduled-${context.jobId}`;
    if (!(await chat.store.getSession(sessionId))) {
      await chat.createSession({ id: sessionId, ...(job.owner !== undefined ? { owner: job.owner } : {}), metadata: { scheduleId: job.scheduleId } }).catch(async (error: unknown) => {
        if (!(await chat.store.getSession(sessionId))) throw error;
      });
    }
  } else if (!(await chat.store.getSession(sessionId))) {
    return { kind: "dropped", why: `schedule "${job.scheduleId}": session "${sessionId}" no longer exists` };
  }
  const turnId = turnJobId(sessionId, context.jobId);
  await context.queue.enqueue({ kind: "turn", sessionId, turnId, input: job.input });
  return { kind: "enqueued", sessionId, turnId, scheduleId: job.scheduleId };
}

async function openOrNull(chat: Chat, sessionId: string): Promise<Session | undefined> {
  try {
    return await chat.openSession(sessionId);
  } catch (error) {
    if (SessionNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/** The turn's record, wherever it is in the session (any branch), or undefined when the journal has none. */
async function recordOf(session: Session, turnId: string): Promise<TurnRecord | undefined> {
  try {
    return (await session.branches(turnId)).find((r) => r.id === turnId);
  } catch (error) {
    if (TurnNotFoundError.isInstance(error)) return undefined;
    throw error;
  }
}

/** Waits for the turn's end; resolves to its error, if it failed. */
async function settled(turn: Turn): Promise<unknown> {
  try {
    await turn.result;
    return undefined;
  } catch (error) {
    return error;
  }
}

async function waitOrGiveUp(error: unknown, deadline: number, context: JobContext): Promise<void> {
  if (Date.now() >= deadline || context.signal.aborted) throw error;
  await new Promise((resolve) => setTimeout(resolve, context.retryMs));
}
