import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
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

/**
 * `june resume [file] <session> [turn]`: continues a suspended durable turn (or, with `--cancel`, ends it).
 * Its work is imported when it runs.
 */
export function resumeCommand(io: CliIO) {
  return defineCommand({
    meta: {
      name: "resume",
      description: "Resume a session's suspended turn: ask for its approvals, then stream the rest of the reply (--cancel ends it instead)",
    },
    args: resumeArgs,
    async run(context) {
      const [{ runResume }, { withMcpFlags }] = await Promise.all([import("./resume-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runResume(io, context, mcp));
    },
  });
}
