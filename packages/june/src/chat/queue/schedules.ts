import { assertSessionId, SessionNotFoundError } from "../../stores/errors.js";
import type { ChatStore } from "../../stores/types.js";
import { validateInput } from "../input.js";
import { NoQueueError, ScheduleInvalidError } from "./errors.js";
import type { QueueSchedule, ScheduledJob, ScheduleInfo, TurnQueue } from "./queue.js";

/** What `chat.schedule` takes: a recurring `cron` or a one-off `runAt`, the turn's input and its session. */
export type ScheduleOptions = {
  /** The schedule's id (1 to 128 letters, digits, `-`, `_`, `.` or `:`); a schedule with this id is replaced. */
  id: string;
  /** The turn's input, the same each run. */
  input: string;
  /** A session's id (each run is a turn of it), or `"new"`: each run in a new session. */
  session: string;
  /** The owner of the sessions `session: "new"` makes. */
  owner?: string;
} & ({ cron: string; timezone?: string; runAt?: never } | { runAt: Date; cron?: never; timezone?: never });

/** The chat's schedule methods, over its queue and store. */
export interface ChatSchedules {
  schedule(options: ScheduleOptions): Promise<ScheduleInfo>;
  schedules(): Promise<ScheduleInfo[]>;
  unschedule(id: string): Promise<boolean>;
}

const SCHEDULE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** `chat.schedule`, `chat.schedules` and `chat.unschedule` of a chat with (or without) a queue. */
export function chatSchedules(queue: TurnQueue | undefined, store: ChatStore, maxInputChars: number): ChatSchedules {
  const need = (method: string): TurnQueue => {
    if (!queue) throw new NoQueueError(method);
    return queue;
  };
  return {
    async schedule(options) {
      const q = need("chat.schedule(options)");
      const schedule = await checkSchedule(options, store, maxInputChars);
      await q.schedule(schedule);
      const listed = (await q.schedules()).find((s) => s.id === schedule.id);
      if (!listed) throw new ScheduleInvalidError(schedule.id, "id", "was not kept by the queue");
      return listed;
    },
    schedules() {
      return need("chat.schedules()").schedules();
    },
    async unschedule(id) {
      const q = need("chat.unschedule(id)");
      if (typeof id !== "string" || !SCHEDULE_ID.test(id)) throw new ScheduleInvalidError(undefined, "id", `must be 1 to 128 letters, digits, "-", "_", "." or ":", got ${JSON.stringify(id)}`);
      return q.unschedule(id);
    },
  };
}

/** Checks every option before anything is scheduled: a wrong one throws `ScheduleInvalidError` naming it. */
async function checkSchedule(options: ScheduleOptions, store: ChatStore, maxInputChars: number): Promise<QueueSchedule> {
  if (typeof options !== "object" || options === null) throw new ScheduleInvalidError(undefined, "options", "must be an object of id, cron or runAt, input and session");
  const { id, input, session, owner } = options as Partial<ScheduleOptions> & Record<string, unknown>;
  if (typeof id !== "string" || !SCHEDULE_ID.test(id)) {
    throw new ScheduleInvalidError(undefined, "id", `must be 1 to 128 letters, digits, "-", "_", "." or ":", got ${JSON.stringify(id)}`);
  }
  try {
    validateInput(input, maxInputChars);
  } catch (error) {
    throw new ScheduleInvalidError(id, "input", (error as Error).message);
  }
  if (owner !== undefined && (typeof owner !== "string" || owner.length === 0)) throw new ScheduleInvalidError(id, "owner", "must be a non-empty string");
  if (session !== "new") {
    try {
      assertSessionId(session);
    } catch (error) {
      throw new ScheduleInvalidError(id, "session", `must be a session id or "new": ${(error as Error).message}`);
    }
    if (!(await store.getSession(session))) throw new SessionNotFoundError(session);
  }
  const job: ScheduledJob = { kind: "scheduled", scheduleId: id, session, input, ...(owner !== undefined ? { owner } : {}) };
  const { cron, runAt, timezone } = options as { cron?: unknown; runAt?: unknown; timezone?: unknown };
  if ((cron === undefined) === (runAt === undefined)) throw new ScheduleInvalidError(id, "cron", "or runAt: give exactly one (a recurring cron, or a one-off runAt)");
  if (runAt !== undefined) {
    if (!(runAt instanceof Date) || Number.isNaN(runAt.getTime())) throw new ScheduleInvalidError(id, "runAt", "must be a valid Date");
    if (runAt.getTime() <= Date.now()) throw new ScheduleInvalidError(id, "runAt", `is in the past (${runAt.toISOString()})`);
    if (timezone !== undefined) throw new ScheduleInvalidError(id, "timezone", "applies to a cron only (runAt is an instant)");
    return { id, runAt, job };
  }
  if (typeof cron !== "string" || cron.trim().length === 0) throw new ScheduleInvalidError(id, "cron", `must be a cron expression such as "0 9 * * 1", got ${JSON.stringify(cron)}`);
  const tz = timezone === undefined ? "UTC" : timezone;
  if (typeof tz !== "string" || !validTimeZone(tz)) throw new ScheduleInvalidError(id, "timezone", `must be an IANA time zone such as "Europe/Paris", got ${JSON.stringify(timezone)}`);
  return { id, cron: cron.trim(), timezone: tz, job };
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
