import type { AnswerCommand, ApproveCommand, DenyCommand } from "../types/turn-types.js";

/**
 * The queue a chat hands work to and its workers take work from. One shape for every engine: the first
 * adapter is pg-boss (`pgBossQueue`). A queue keeps the work of one session in order and gives each piece
 * of work to one worker at a time; a worker that stops answering loses its work to another.
 */

/** A turn to run (`session.enqueue`), with the id it was given when it was enqueued. */
export interface TurnJob {
  kind: "turn";
  sessionId: string;
  turnId: string;
  input: string;
}

/** A decision on a suspended durable turn, carried to the worker that resumes it. */
export type QueueDecision = ApproveCommand | DenyCommand | AnswerCommand;

/**
 * A suspended durable turn to continue on a worker, with the decisions taken on it (approve, deny, answer),
 * applied once it is resumed.
 */
export interface ResumeJob {
  kind: "resume";
  sessionId: string;
  turnId: string;
  decisions?: QueueDecision[];
}

/** A schedule's run came due: a worker makes its turn (in a new session, or the schedule's session). */
export interface ScheduledJob {
  kind: "scheduled";
  scheduleId: string;
  /** A session id, or `"new"`: a new session per run. */
  session: string;
  owner?: string;
  input: string;
}

/** A piece of work a queue carries. */
export type QueueJob = TurnJob | ResumeJob | ScheduledJob;

/** A recurring (`cron`) or one-off (`runAt`) schedule, as the queue keeps it. */
export type QueueSchedule =
  | { id: string; cron: string; timezone: string; job: ScheduledJob }
  | { id: string; runAt: Date; job: ScheduledJob };

/** A schedule as `chat.schedules()` lists it. */
export type ScheduleInfo =
  | { id: string; kind: "cron"; cron: string; timezone: string; nextRunAt: Date | undefined; session: string; owner?: string; input: string }
  | { id: string; kind: "once"; runAt: Date; nextRunAt: Date; session: string; owner?: string; input: string };

/** What a worker asks of the queue. */
export interface WorkOptions {
  /** How many jobs this worker runs at once. */
  concurrency: number;
  /** How long a job's worker may be silent before the job goes to another worker. */
  takeOverAfterMs: number;
}

/** Runs one job. Resolving completes it; rejecting lets the queue retry it. `signal` aborts when the job was taken away. */
export type JobHandler = (job: QueueJob, context: { signal: AbortSignal; attempt: number; jobId: string }) => Promise<void>;

/** A worker's hold on the queue: `stop()` takes no new jobs and waits for the running ones. */
export interface WorkHandle {
  stop(): Promise<void>;
}

/** The queue interface. An adapter makes one; `createChat({ queue })` and `createWorker({ queue })` take it. */
export interface TurnQueue {
  /** The adapter's name and where it points, without credentials (`pg-boss at 127.0.0.1:5432/test`). */
  readonly description: string;
  /** Puts a job on the queue; a job sent twice (same session and turn) is kept once. */
  enqueue(job: TurnJob | ResumeJob): Promise<void>;
  /** Takes jobs and runs them with `handler` until the handle is stopped. */
  work(handler: JobHandler, options: WorkOptions): Promise<WorkHandle>;
  /** Adds (or replaces) a schedule. Throws `ScheduleInvalidError` and keeps nothing when it is invalid. */
  schedule(schedule: QueueSchedule): Promise<void>;
  /** Every schedule, by id. */
  schedules(): Promise<ScheduleInfo[]>;
  /** Removes a schedule; `false` when there was none by that id. */
  unschedule(id: string): Promise<boolean>;
  /** Closes the queue's connections. */
  close(): Promise<void>;
}

/** Tells a queue from anything else (`createChat({ queue })` checks it). */
export function isTurnQueue(value: unknown): value is TurnQueue {
  if (typeof value !== "object" || value === null) return false;
  const q = value as Record<string, unknown>;
  return ["enqueue", "work", "schedule", "schedules", "unschedule", "close"].every((m) => typeof q[m] === "function");
}
