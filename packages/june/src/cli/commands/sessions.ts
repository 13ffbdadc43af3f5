import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
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

/** `june sessions list | show ID | export ID | rm ID`. Their work is imported when one runs. */
export function sessionsCommand(io: CliIO) {
  const action = () => import("./sessions-action.js");
  const list = defineCommand({
    meta: { name: "list", description: "List sessions, newest first" },
    args: listArgs,
    run: async (context) => (await action()).listSessions(io, context),
  });
  const show = defineCommand({
    meta: { name: "show", description: "Show a session's turns" },
    args: showArgs,
    run: async (context) => (await action()).showSession(io, context),
  });
  const exportCommand = defineCommand({
    meta: { name: "export", description: "Print a session's journal as JSON lines, with credentials redacted" },
    args: idStoreArgs,
    run: async (context) => (await action()).exportSession(io, context),
  });
  const rm = defineCommand({
    meta: { name: "rm", description: "Delete a session and its journal" },
    args: idStoreArgs,
    run: async (context) => (await action()).removeSession(io, context),
  });
  return defineCommand({
    meta: { name: "sessions", description: "List, show, export (redacted) or delete the sessions in a store" },
    subCommands: { list, show, export: exportCommand, rm },
  });
}
