import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, EXIT_LINE, MODEL_NOTE, type CommandHelp } from "../help.js";
import { mcpArg, reasoningArg, modelArgs, sessionArg, storeArg, turnArgs } from "./shared-args.js";

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
  ...reasoningArg,
  ...mcpArg,
} as const satisfies ArgsDef;

/** `june ask --help`. */
export const askHelp: CommandHelp = {
  summary: "Ask once: one turn, the reply alone on stdout, the session id on stderr.",
  usage: ["june ask [<file>] <input...> [--model PROVIDER:ID] [--session ID] [--store DIR] [--json] [--yes | --deny]"],
  about: [
    "The input is the rest of the arguments, joined with spaces; with none, it is read from stdin. The first",
    "argument is the chat module when it ends in .ts, .tsx, .js or .mjs: its default export is a Chat, a",
    "Responder, or a function ({ model }) => either. With no file, a chat with --model.",
    "",
    MODEL_NOTE,
  ],
  examples: [
    ["june ask --model openai:gpt-5-mini \"What is a monorepo?\"", "a model chat, one turn"],
    ["june ask examples/offline.tsx \"Deploy the docs to staging\" --yes", "approve the tool call without asking"],
    ["git diff | june ask --model anthropic:claude-sonnet-4-5 > review.md", "the input from a pipe, the reply to a file"],
    ["june ask --model openai:gpt-5-mini --session 3f2a… \"And then?\"", "a follow-up in the same session"],
  ],
  sections: [{ title: "EXIT CODES", lines: [EXIT_LINE] }],
};

/** `june ask [file] <input...>`: one turn, the reply alone on stdout. Its work is imported when it runs. */
export function askCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("ask", askHelp),
    args: askArgs,
    async run(context) {
      const [{ runAsk }, { withMcpFlags }] = await Promise.all([import("./ask-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runAsk(io, context, mcp));
    },
  });
}
