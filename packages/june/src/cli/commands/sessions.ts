import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, type CommandHelp } from "../help.js";
import { storeArg } from "./shared-args.js";

const jsonArg = {
  json: { type: "boolean", description: "Print JSON lines instead of text" },
} as const satisfies ArgsDef;

const idArg = {
  id: { type: "positional", required: true, description: "The session's id" },
} as const satisfies ArgsDef;

/** The arguments of `june sessions list`. */
export const listArgs = { ...storeArg, ...jsonArg } as const satisfies ArgsDef;
/** The arguments of `june sessions show`. */
export const showArgs = { ...idArg, ...storeArg, ...jsonArg } as const satisfies ArgsDef;
/** The arguments of `june sessions export` and `rm`. */
export const idStoreArgs = { ...idArg, ...storeArg } as const satisfies ArgsDef;

/** `june sessions --help`. */
export const sessionsHelp: CommandHelp = {
  summary: "List, show, export (redacted) or delete the sessions in a store.",
  usage: ["june sessions list [--store DIR] [--json]", "june sessions show|export|rm <id> [--store DIR]"],
  examples: [
    ["june sessions list", "newest first, with relative times"],
    ["june sessions show 3f2a…", "a session's turns as a transcript"],
    ["june sessions export 3f2a… > session.jsonl", "its journal, credentials redacted"],
    ["june sessions rm 3f2a… --store .june/chat", "delete it"],
  ],
};

/** `june sessions list --help`. */
export const listHelp: CommandHelp = {
  summary: "List the sessions in a store, newest first.",
  usage: ["june sessions list [--store DIR] [--json]"],
  about: [
    "On a terminal, a table with a header and relative times; otherwise tab-separated columns (id, updated",
    "at as an ISO time, turns, title) with no header, for scripts. --json prints one session per line.",
  ],
  examples: [
    ["june sessions list", "the sessions in .june/chat"],
    ["june sessions list --store ~/notes/.june/chat", "another store"],
    ["june sessions list | cut -f1 | head -3", "the three newest ids"],
  ],
};

/** `june sessions show --help`. */
export const showHelp: CommandHelp = {
  summary: "Show a session's turns: each input, then its reply.",
  usage: ["june sessions show <id> [--store DIR] [--json]"],
  examples: [
    ["june sessions show 3f2a…", "the transcript"],
    ["june sessions show 3f2a… --json", "one turn per JSON line"],
  ],
};

/** `june sessions export --help`. */
export const exportHelp: CommandHelp = {
  summary: "Print a session's journal as JSON lines, with credentials redacted.",
  usage: ["june sessions export <id> [--store DIR]"],
  examples: [["june sessions export 3f2a… > session.jsonl", "save it"]],
};

/** `june sessions rm --help`. */
export const rmHelp: CommandHelp = {
  summary: "Delete a session and its journal.",
  usage: ["june sessions rm <id> [--store DIR]"],
  examples: [["june sessions rm 3f2a…", "delete it from .june/chat"]],
};

/** `june sessions list | show ID | export ID | rm ID`. Their work is imported when one runs. */
export function sessionsCommand(io: CliIO) {
  const action = () => import("./sessions-action.js");
  const list = defineCommand({
    meta: commandMeta("list", listHelp),
    args: listArgs,
    run: async (context) => (await action()).listSessions(io, context),
  });
  const show = defineCommand({
    meta: commandMeta("show", showHelp),
    args: showArgs,
    run: async (context) => (await action()).showSession(io, context),
  });
  const exportCommand = defineCommand({
    meta: commandMeta("export", exportHelp),
    args: idStoreArgs,
    run: async (context) => (await action()).exportSession(io, context),
  });
  const rm = defineCommand({
    meta: commandMeta("rm", rmHelp),
    args: idStoreArgs,
    run: async (context) => (await action()).removeSession(io, context),
  });
  return defineCommand({
    meta: commandMeta("sessions", sessionsHelp),
    subCommands: { list, show, export: exportCommand, rm },
  });
}
