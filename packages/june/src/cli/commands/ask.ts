import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { mcpArg, modelArgs, sessionArg, storeArg, turnArgs } from "./shared-args.js";

/** `june ask`'s arguments. */
export const askArgs = {
  module: {
    type: "positional",
    required: false,
    description: "A chat module (.ts, .tsx, .js, .mjs) whose default export is a Chat, a Responder, or a function ({ model }) => either",
  },
  input: {
    type: "positional",
    required: false,
    description: "The input: the rest of the arguments, joined with spaces (read from stdin when none are given and stdin is not a terminal)",
  },
  file: {
    type: "string",
    valueHint: "path",
    description: "A file to send with the input (an image, a PDF, a text file); repeat for more. With files, the input may be left out",
  },
  ...modelArgs,
  ...sessionArg,
  ...storeArg,
  ...turnArgs,
  ...mcpArg,
} as const satisfies ArgsDef;

/** `june ask [file] <input...>`: one turn, the reply alone on stdout. Its work is imported when it runs. */
export function askCommand(io: CliIO) {
  return defineCommand({
    meta: { name: "ask", description: "Ask once: one turn, the reply alone on stdout, the session id on stderr" },
    args: askArgs,
    async run(context) {
      const [{ runAsk }, { withMcpFlags }] = await Promise.all([import("./ask-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runAsk(io, context, mcp));
    },
  });
}
