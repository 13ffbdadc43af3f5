import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { mcpArg, modelArgs, sessionArg, storeArg, turnArgs } from "./shared-args.js";

/** `june chat`'s arguments. */
export const chatArgs = {
  file: {
    type: "positional",
    required: false,
    description: "A chat module (.ts, .tsx, .js, .mjs) whose default export is a Chat, a Responder, or a function ({ model }) => either",
  },
  ...modelArgs,
  ...sessionArg,
  ...storeArg,
  ...turnArgs,
  ...mcpArg,
} as const satisfies ArgsDef;

/**
 * `june chat [file]`: a conversation. On a terminal, a prompt with line editing (Ctrl-C cancels a running
 * turn, Ctrl-C at the prompt, Ctrl-D or /exit quits); otherwise every line of stdin is one turn and every
 * reply one block on stdout. Its work is imported when it runs.
 */
export function chatCommand(io: CliIO) {
  return defineCommand({
    meta: { name: "chat", description: "Chat in the terminal (or one turn per line of stdin when it is not a terminal)" },
    args: chatArgs,
    async run(context) {
      const [{ runChat }, { withMcpFlags }] = await Promise.all([import("./chat-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runChat(io, context, mcp));
    },
  });
}
