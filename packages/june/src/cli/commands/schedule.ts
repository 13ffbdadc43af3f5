import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, type CommandHelp } from "../help.js";
import { modelArgs, storeArg } from "./shared-args.js";
import { queueArgs } from "./worker.js";

const jsonArg = { json: { type: "boolean", description: "Print JSON lines instead of text" } } as const satisfies ArgsDef;

/** The arguments of `june schedule add`. */
export const addArgs = {
  file: { type: "positional", required: true, description: "The chat module the scheduled turns run with (its store holds --session)" },
  id: { type: "string", required: true, valueHint: "id", description: "The schedule's id (a schedule with this id is replaced)" },
  cron: { type: "string", valueHint: "expr", description: "When it recurs, a cron expression (\"0 9 * * 1\"); or --run-at" },
  timezone: { type: "string", valueHint: "zone", description: "The cron's IANA time zone (default: UTC)" },
  "run-at": { type: "string", valueHint: "iso", description: "A one-off run, an ISO time (2026-12-24T09:00:00Z); or --cron" },
  input: { type: "string", required: true, valueHint: "text", description: "The turn's input" },
  session: { type: "string", valueHint: "id|new", description: "The session each run is a turn of, or new: a new session per run (default: new)" },
  owner: { type: "string", valueHint: "id", description: "The owner of the sessions --session new makes" },
  ...queueArgs,
  ...modelArgs,
  ...storeArg,
} as const satisfies ArgsDef;
/** The arguments of `june schedule list`. */
export const listArgs = { ...queueArgs, ...jsonArg } as const satisfies ArgsDef;
/** The arguments of `june schedule rm`. */
export const rmArgs = { id: { type: "positional", required: true, description: "The schedule's id" }, ...queueArgs } as const satisfies ArgsDef;

/** `june schedule --help`. */
export const scheduleHelp: CommandHelp = {
  summary: "Add, list or remove a chat's scheduled turns (pg-boss on PostgreSQL, Node 22.12+); june worker runs them.",
  usage: ["june schedule add <file> --id ID (--cron EXPR [--timezone ZONE] | --run-at ISO) --input TEXT [--session ID|new] --queue URL", "june schedule list|rm <id> --queue URL"],
  examples: [
    ["june schedule add examples/offline.tsx --id weekly --cron \"0 9 * * 1\" --input \"Summarize the week\" --queue $DATABASE_URL", "every Monday at 9:00 UTC, a new session each"],
    ["june schedule list --queue $DATABASE_URL", "every schedule, with its next run"],
    ["june schedule rm weekly --queue $DATABASE_URL", "remove it"],
  ],
};

const addHelp: CommandHelp = {
  summary: "Schedule a turn: recurring (--cron) or once (--run-at), in a session or a new one per run.",
  usage: ["june schedule add <file> --id ID (--cron EXPR [--timezone ZONE] | --run-at ISO) --input TEXT [--session ID|new] [--owner ID] --queue URL"],
  about: ["A bad cron, time zone or --run-at (or one in the past), or an unknown session, is refused (exit 2) and nothing is scheduled."],
  examples: [["june schedule add examples/offline.tsx --id once --run-at 2030-01-01T09:00:00Z --input \"Happy new year\" --queue $DATABASE_URL", "once"]],
};
const listHelp: CommandHelp = {
  summary: "List the schedules: id, cron (and time zone) or run-at, next run, session, input.",
  usage: ["june schedule list --queue URL [--json]"],
  examples: [["june schedule list --queue $DATABASE_URL --json", "one schedule per JSON line"]],
};
const rmHelp: CommandHelp = {
  summary: "Remove a schedule (exit 1 when there is none by that id).",
  usage: ["june schedule rm <id> --queue URL"],
  examples: [["june schedule rm weekly --queue $DATABASE_URL", "remove it"]],
};

/** `june schedule add | list | rm`. Their work is imported when one runs. */
export function scheduleCommand(io: CliIO) {
  const action = () => import("./schedule-action.js");
  return defineCommand({
    meta: commandMeta("schedule", scheduleHelp),
    subCommands: {
      add: defineCommand({ meta: commandMeta("add", addHelp), args: addArgs, run: async (context) => (await action()).addSchedule(io, context) }),
      list: defineCommand({ meta: commandMeta("list", listHelp), args: listArgs, run: async (context) => (await action()).listSchedules(io, context) }),
      rm: defineCommand({ meta: commandMeta("rm", rmHelp), args: rmArgs, run: async (context) => (await action()).removeSchedule(io, context) }),
    },
  });
}
