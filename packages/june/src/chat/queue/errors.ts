import { JuneError } from "../../errors/june-error.js";

/** The queue could not be reached (`pgBossQueue`: PostgreSQL refused, or pg-boss could not start). */
export class QueueUnavailableError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.QueueUnavailableError");
  override readonly name = "QueueUnavailableError";
  /** The queue's kind and where it was looked for, credentials removed (`pg-boss at 127.0.0.1:5432/test`). */
  readonly queue: string;
  constructor(queue: string, detail: string, options?: { cause?: unknown }) {
    super(`The queue (${queue}) is unavailable: ${detail}`, options);
    this.queue = queue;
  }
}

/** A schedule that cannot be made: a bad cron, time zone or `runAt`, a missing input; nothing was scheduled. */
export class ScheduleInvalidError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ScheduleInvalidError");
  override readonly name = "ScheduleInvalidError";
  /** The schedule's id, when it had one. */
  readonly scheduleId: string | undefined;
  /** The option that was wrong (`cron`, `timezone`, `runAt`, `session`, `input`, `id`). */
  readonly field: string;
  constructor(scheduleId: string | undefined, field: string, detail: string) {
    super(`Schedule${scheduleId === undefined ? "" : ` "${scheduleId}"`} is invalid: ${field} ${detail}`);
    this.scheduleId = scheduleId;
    this.field = field;
  }
}

/** A method that needs the chat's queue (`createChat({ queue })`) on a chat that has none. */
export class NoQueueError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.NoQueueError");
  override readonly name = "NoQueueError";
  constructor(method: string) {
    super(`${method} needs a queue: create the chat with createChat({ ..., queue: pgBossQueue({ connectionString }) })`);
  }
}
