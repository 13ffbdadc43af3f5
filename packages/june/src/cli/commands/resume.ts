import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, EXIT_LINE, type CommandHelp } from "../help.js";
import { mcpArg, modelArgs, storeArg, turnArgs } from "./shared-args.js";

/** `june resume`'s arguments. */
export const resumeArgs = {
  file: {
    type: "positional",
    required: false,
    description: "The chat module the session's turns ran with (.ts, .tsx, .js, .mjs); with none, a chat with --model",
  },
  session: { type: "positional", required: false, description: "The session's id" },
  turn: { type: "positional", required: false, description: "The turn to resume (default: the session's latest suspended turn)" },
  cancel: {
    type: "boolean",
    description: "End the suspended turn instead, running nothing: journaled canceled, its checkpoint deleted",
  },
  ...modelArgs,
  ...storeArg,
  ...turnArgs,
  ...mcpArg,
} as const satisfies ArgsDef;

/** `june resume --help`. */
export const resumeHelp: CommandHelp = {
  summary: "Resume a session's suspended turn: ask for its approvals, then stream the rest of the reply.",
  usage: ["june resume [<file>] <session> [<turn>] [--model PROVIDER:ID] [--store DIR] [--json] [--yes | --deny | --cancel]"],
  about: [
    "A durable turn (agentResponder({ durable })) suspends while it waits on approvals alone; this continues",
    "it: the latest suspended (or interrupted) turn of the session, or <turn>. Each pending request is shown",
    "(tool name and input, credentials redacted) and asked on stderr, or decided by --yes or --deny; then the",
    "rest of the reply streams to stdout as with june ask. Give the chat module the session ran with.",
    "Without a terminal to ask, pass --yes or --deny: nothing is denied for want of someone to ask.",
    "--cancel ends the turn instead, running and deciding nothing (journaled canceled, its checkpoint deleted).",
  ],
  examples: [
    ["june resume examples/offline.tsx 3f2a…", "ask for the latest suspended turn's approvals, then continue it"],
    ["june resume examples/offline.tsx 3f2a… 9c41… --yes", "approve that turn's requests without asking"],
    ["june resume examples/offline.tsx 3f2a… --deny", "deny them; the turn ends without running the tools"],
    ["june resume examples/offline.tsx 3f2a… --cancel", "end the latest suspended turn without running anything"],
  ],
  sections: [
    {
      title: "EXIT CODES",
      lines: [EXIT_LINE, "2 also when the session does not exist or has nothing to resume.", "With --cancel: 0 canceled, 1 a process runs the turn (the session is busy)."],
    },
  ],
};

/**
 * `june resume [file] <session> [turn]`: continues a suspended durable turn (or, with `--cancel`, ends it).
 * Its work is imported when it runs.
 */
export function resumeCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("resume", resumeHelp),
    args: resumeArgs,
    async run(context) {
      const [{ runResume }, { withMcpFlags }] = await Promise.all([import("./resume-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runResume(io, context, mcp));
    },
  });
}
