/**
 * `june/worker`: turns that run with no caller waiting. A queue on an engine you already run (`pgBossQueue`,
 * PostgreSQL with pg-boss 12, Node 22.12+), `createWorker` to run a chat's queued and scheduled turns, and the
 * errors they throw. A chat enqueues with `createChat({ queue })`, `session.enqueue(input)` and
 * `chat.schedule(...)`. See docs/workers.md.
 */
export { pgBossQueue, type PgBossQueueOptions } from "./pg-boss-queue.js";
export { createWorker, type Worker, type WorkerOptions } from "./create-worker.js";
export type { JobOutcome } from "./run-job.js";
export type {
  JobHandler,
  QueueJob,
  QueueSchedule,
  ResumeJob,
  ScheduledJob,
  ScheduleInfo,
  TurnJob,
  TurnQueue,
  WorkHandle,
  WorkOptions,
} from "../chat/queue/queue.js";
export type { ScheduleOptions } from "../chat/queue/schedules.js";
export { NoQueueError, QueueUnavailableError, ScheduleInvalidError } from "../chat/queue/errors.js";
