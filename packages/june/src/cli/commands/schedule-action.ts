import type { CommandContext } from "citty";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { resolveChat } from "../resolve-chat.js";
import type { ScheduleInfo } from "../../chat/queue/queue.js";
import type { ScheduleOptions } from "../../chat/queue/schedules.js";
import type { addArgs, listArgs, rmArgs } from "./schedule.js";
import { queueOf } from "./worker-action.js";

/** `june schedule add <file> ...`: checks everything, then schedules; a bad option is a usage error (2). */
export async function addSchedule(io: CliIO, { args }: CommandContext<typeof addArgs>): Promise<number> {
  if ((args.cron === undefined) === (args["run-at"] === undefined)) throw new CliUsageError("june schedule add needs exactly one of --cron EXPR and --run-at ISO");
  let when: { cron: string; timezone?: string } | { runAt: Date };
  if (args["run-at"] !== undefined) {
    const runAt = new Date(args["run-at"]);
    if (Number.isNaN(runAt.getTime())) throw new CliUsageError(`--run-at must be an ISO time such as 2030-01-01T09:00:00Z, got "${args["run-at"]}"`);
    if (args.timezone !== undefined) throw new CliUsageError("--timezone applies to --cron only (--run-at is an instant)");
    when = { runAt };
  } else when = { cron: args.cron!, ...(args.timezone !== undefined ? { timezone: args.timezone } : {}) };
  const queue = await queueOf(io, args, "schedule add");
  try {
    const { chat } = await resolveChat({ io, file: args.file, model: args.model, baseUrl: args["base-url"], store: args.store, command: "schedule add" });
    const { chatSchedules } = await import("../../chat/queue/schedules.js");
    const { ScheduleInvalidError } = await import("../../chat/queue/errors.js");
    const options = { id: args.id, input: args.input, session: args.session ?? "new", ...(args.owner !== undefined ? { owner: args.owner } : {}), ...when } as ScheduleOptions;
    try {
      const info = await chatSchedules(queue, chat.store, chat.maxInputChars ?? 1_000_000).schedule(options);
      io.stdout.write(`${line(info)}\n`);
    } catch (error) {
      if (ScheduleInvalidError.isInstance(error)) throw new CliUsageError(error.message);
      throw error;
    }
    return 0;
  } finally {
    await queue.close();
  }
}

/** `june schedule list`: a line per schedule (tab-separated), or JSON lines. */
export async function listSchedules(io: CliIO, { args }: CommandContext<typeof listArgs>): Promise<number> {
  const queue = await queueOf(io, args, "schedule list");
  try {
    for (const info of await queue.schedules()) io.stdout.write(`${args.json === true ? JSON.stringify(info) : line(info)}\n`);
    return 0;
  } finally {
    await queue.close();
  }
}

/** `june schedule rm <id>`: 0 removed, 1 none by that id. */
export async function removeSchedule(io: CliIO, { args }: CommandContext<typeof rmArgs>): Promise<number> {
  const queue = await queueOf(io, args, "schedule rm");
  try {
    const removed = await queue.unschedule(args.id);
    io.stderr.write(removed ? `removed schedule ${args.id}\n` : `no schedule "${args.id}"\n`);
    return removed ? 0 : 1;
  } finally {
    await queue.close();
  }
}

function line(info: ScheduleInfo): string {
  const when = info.kind === "cron" ? `${info.cron} (${info.timezone})` : info.runAt.toISOString();
  return [info.id, when, info.nextRunAt?.toISOString() ?? "-", info.session, info.input].join("\t");
}
