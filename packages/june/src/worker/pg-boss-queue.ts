import { QueueUnavailableError, ScheduleInvalidError } from "../chat/queue/errors.js";
import { freshJobId, scheduleJobId, turnJobId } from "./job-ids.js";
import type { JobHandler, QueueJob, QueueSchedule, ResumeJob, ScheduledJob, ScheduleInfo, TurnJob, TurnQueue, WorkHandle, WorkOptions } from "../chat/queue/queue.js";

/** Options of `pgBossQueue`. */
export interface PgBossQueueOptions {
  /** The PostgreSQL database pg-boss keeps its jobs in (`postgres://user@host:5432/db`). */
  connectionString: string;
  /** The schema of pg-boss's tables. Default: `june_queue`. */
  schema?: string;
  /**
   * How long a worker may be silent before its turns go to another worker, for the turns this queue enqueues
   * (a worker's own `takeOverAfterMs` sets it for the jobs enqueued after it started). At least 10 s (pg-boss's
   * heartbeat floor). Default: 30 s.
   */
  takeOverAfterMs?: number;
}

/** The queues pg-boss keeps: turns (FIFO per session), schedules' runs, and the turns that failed for good. */
const TURNS = "june-turns";
const SCHEDULED = "june-scheduled";
const DEAD = "june-turns-dead";

/** The part of pg-boss 12 this adapter uses (its own types stay out of June's). */
interface BossJob {
  id: string;
  data: unknown;
  retryCount: number;
  signal: AbortSignal;
}
interface Boss {
  on(event: "error", listener: (error: Error) => void): unknown;
  start(): Promise<unknown>;
  stop(options?: { graceful?: boolean; timeout?: number; close?: boolean }): Promise<void>;
  createQueue(name: string, options?: Record<string, unknown>): Promise<void>;
  getQueue(name: string): Promise<{ heartbeatSeconds?: number | null } | null>;
  updateQueue(name: string, options: Record<string, unknown>): Promise<void>;
  send(name: string, data: object, options?: Record<string, unknown>): Promise<string | null>;
  work(name: string, options: Record<string, unknown>, handler: (jobs: BossJob[]) => Promise<unknown>): Promise<string>;
  offWork(name: string, options?: { id?: string; wait?: boolean }): Promise<void>;
  schedule(name: string, cron: string, data: object, options: Record<string, unknown>): Promise<void>;
  unschedule(name: string, key?: string): Promise<void>;
  getSchedules(name?: string): Promise<{ key: string; cron: string; timezone: string; data?: unknown }[]>;
  getSchedule(name: string, key?: string): Promise<unknown>;
  previewSchedule(cron: string, options?: { tz?: string; count?: number }): Date[];
  findJobs(name: string, options?: Record<string, unknown>): Promise<{ id: string; data: unknown; startAfter: Date; state: string }[]>;
  deleteJob(name: string, id: string): Promise<unknown>;
}

/** A one-off schedule's run as pg-boss keeps it: the job, and when it runs. */
type OnceData = ScheduledJob & { runAt: string };

/**
 * A queue on pg-boss 12 (PostgreSQL), which needs Node 22.12 or newer and the `pg-boss` package (an optional
 * peer: `npm install pg-boss`), loaded when the queue is first used. Turns go to one queue with the
 * `key_strict_fifo` policy keyed by session (a session's turns run one at a time, in order), each job's id the
 * turn's id; a worker beats every second and a job whose worker is silent for `takeOverAfterMs` goes to
 * another; schedules are pg-boss's own (cron) and delayed jobs (`runAt`).
 *
 * @example
 * const queue = pgBossQueue({ connectionString: "postgres://postgres@127.0.0.1:5432/app" });
 * const chat = createChat({ model, store, queue });
 */
export function pgBossQueue(options: PgBossQueueOptions): TurnQueue {
  if (typeof options !== "object" || options === null) throw new TypeError("pgBossQueue(options): options must be an object with `connectionString`");
  const { connectionString, schema = "june_queue" } = options;
  if (typeof connectionString !== "string" || connectionString.length === 0) {
    throw new TypeError("pgBossQueue({ connectionString }): must be a PostgreSQL URL such as postgres://user@host:5432/db");
  }
  if (typeof schema !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`pgBossQueue({ schema }): must be a PostgreSQL identifier (letters, digits, _), got ${JSON.stringify(schema)}`);
  }
  const takeOverAfterMs = checkTakeOver(options.takeOverAfterMs ?? 30_000, "pgBossQueue({ takeOverAfterMs })");
  const description = `pg-boss at ${where(connectionString)}, schema ${schema}`;
  let booting: Promise<Boss> | undefined;
  let closed = false;

  const boss = (): Promise<Boss> => {
    if (closed) return Promise.reject(new QueueUnavailableError(description, "it was closed"));
    booting ??= boot(connectionString, schema, description, heartbeatOf(takeOverAfterMs)).catch((error: unknown) => {
      booting = undefined;
      throw error;
    });
    return booting;
  };

  const send = async (job: TurnJob | ResumeJob): Promise<void> => {
    const b = await boss();
    const id = job.kind === "turn" ? turnJobId(job.sessionId, job.turnId) : freshJobId();
    // A decision (an edited input, an answer) stays in the job's row only until a minute after the job completed.
    const kept = job.kind === "resume" && job.decisions?.length ? { deleteAfterSeconds: 60 } : {};
    await b.send(TURNS, job, { id, singletonKey: job.sessionId, ...kept });
  };

  return {
    description,
    enqueue(job) {
      return send(job);
    },
    async work(handler: JobHandler, work: WorkOptions): Promise<WorkHandle> {
      const b = await boss();
      const heartbeatSeconds = heartbeatOf(checkTakeOver(work.takeOverAfterMs, "createWorker({ takeOverAfterMs })"));
      const queue = await b.getQueue(TURNS);
      if (queue?.heartbeatSeconds !== heartbeatSeconds) await b.updateQueue(TURNS, { heartbeatSeconds });
      const run = async ([job]: BossJob[]): Promise<void> => {
        if (job) await handler(job.data as QueueJob, { signal: job.signal, attempt: job.retryCount, jobId: job.id });
      };
      const polling = { pollingIntervalSeconds: 0.5, heartbeatRefreshSeconds: 1 };
      const ids = [
        await b.work(TURNS, { ...polling, localConcurrency: work.concurrency, batchSize: 1 }, run),
        await b.work(SCHEDULED, { ...polling, localConcurrency: 1, batchSize: 1 }, run),
      ];
      let stopping: Promise<void> | undefined;
      return {
        stop() {
          stopping ??= Promise.all(ids.map((id, i) => b.offWork(i === 0 ? TURNS : SCHEDULED, { id, wait: true }))).then(() => undefined);
          return stopping;
        },
      };
    },
    async schedule(schedule: QueueSchedule): Promise<void> {
      const b = await boss();
      const { id, job } = schedule;
      if ("cron" in schedule) {
        try {
          b.previewSchedule(schedule.cron, { tz: schedule.timezone, count: 1 });
        } catch (error) {
          throw new ScheduleInvalidError(id, "cron", `${JSON.stringify(schedule.cron)} is not a cron expression pg-boss reads (${(error as Error).message})`);
        }
        await b.deleteJob(SCHEDULED, scheduleJobId(id));
        await b.schedule(SCHEDULED, schedule.cron, job, { tz: schedule.timezone, key: id });
        return;
      }
      if (await b.getSchedule(SCHEDULED, id)) await b.unschedule(SCHEDULED, id);
      const jobId = scheduleJobId(id);
      await b.deleteJob(SCHEDULED, jobId);
      const data: OnceData = { ...job, runAt: schedule.runAt.toISOString() };
      await b.send(SCHEDULED, data, { id: jobId, startAfter: schedule.runAt });
    },
    async schedules(): Promise<ScheduleInfo[]> {
      const b = await boss();
      const out: ScheduleInfo[] = [];
      for (const s of await b.getSchedules(SCHEDULED)) {
        const job = s.data as ScheduledJob;
        const [next] = safePreview(b, s.cron, s.timezone);
        out.push({ id: s.key, kind: "cron", cron: s.cron, timezone: s.timezone, nextRunAt: next, ...described(job) });
      }
      for (const j of await b.findJobs(SCHEDULED, { queued: true })) {
        const data = j.data as Partial<OnceData>;
        if (typeof data.runAt !== "string" || j.id !== scheduleJobId(data.scheduleId ?? "")) continue;
        const runAt = new Date(data.runAt);
        out.push({ id: data.scheduleId!, kind: "once", runAt, nextRunAt: runAt, ...described(data as ScheduledJob) });
      }
      return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async unschedule(id: string): Promise<boolean> {
      const b = await boss();
      let found = false;
      if (await b.getSchedule(SCHEDULED, id)) {
        await b.unschedule(SCHEDULED, id);
        found = true;
      }
      const jobId = scheduleJobId(id);
      const queued = await b.findJobs(SCHEDULED, { id: jobId, queued: true });
      if (queued.length > 0) found = true;
      await b.deleteJob(SCHEDULED, jobId);
      return found;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const started = booting;
      booting = undefined;
      if (started) await (await started.catch(() => undefined))?.stop({ graceful: true, timeout: 10_000, close: true });
    },
  };
}

/** Loads pg-boss, starts it (installing its schema the first time) and makes June's queues. */
async function boot(connectionString: string, schema: string, description: string, heartbeatSeconds: number): Promise<Boss> {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    throw new QueueUnavailableError(description, `pg-boss 12 needs Node 22.12 or newer; this is Node ${process.versions.node}`);
  }
  let PgBoss: new (options: Record<string, unknown>) => Boss;
  try {
    const specifier = "pg-boss";
    ({ PgBoss } = (await import(specifier)) as { PgBoss: typeof PgBoss });
  } catch (error) {
    throw new QueueUnavailableError(description, "the pg-boss package is not installed (npm install pg-boss@12)", { cause: error });
  }
  const boss = new PgBoss({
    connectionString,
    schema,
    connectionTimeoutMillis: 5000,
    // The supervisor finds jobs whose worker went silent: it runs every second so a take-over is not late.
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  });
  boss.on("error", () => undefined);
  try {
    await boss.start();
    await ensureQueue(boss, DEAD, {});
    await ensureQueue(boss, TURNS, { policy: "key_strict_fifo", heartbeatSeconds, retryLimit: 1000, retryDelay: 1, deadLetter: DEAD, expireInSeconds: 86_400 });
    await ensureQueue(boss, SCHEDULED, { retryLimit: 5, retryDelay: 5, deadLetter: DEAD });
  } catch (error) {
    await boss.stop({ graceful: false, close: true }).catch(() => undefined);
    throw new QueueUnavailableError(description, (error as Error).message, { cause: error });
  }
  return boss;
}

async function ensureQueue(boss: Boss, name: string, options: Record<string, unknown>): Promise<void> {
  if (!(await boss.getQueue(name))) await boss.createQueue(name, options);
}

function safePreview(boss: Boss, cron: string, tz: string): Date[] {
  try {
    return boss.previewSchedule(cron, { tz, count: 1 });
  } catch {
    return [];
  }
}

function described(job: ScheduledJob): { session: string; owner?: string; input: string } {
  return { session: job.session, ...(job.owner !== undefined ? { owner: job.owner } : {}), input: job.input };
}

/** pg-boss's heartbeat of a take-over time: whole seconds, at least 10. */
function heartbeatOf(takeOverAfterMs: number): number {
  return Math.max(10, Math.floor(takeOverAfterMs / 1000));
}

function checkTakeOver(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 10_000) {
    throw new TypeError(`${what}: must be a number of milliseconds, 10000 or more (pg-boss's heartbeat floor is 10 s), got ${String(value)}`);
  }
  return value;
}

/** Where a connection string points, without its user or password. */
function where(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.host}${url.pathname}`;
  } catch {
    return "an unreadable connection string";
  }
}
