import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, EXIT_LINE, MODEL_NOTE, type CommandHelp } from "../help.js";
import { REPL_COMMANDS } from "../repl-commands.js";
import { mcpArg, reasoningArg, modelArgs, sessionArg, storeArg, turnArgs } from "./shared-args.js";

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
  ...reasoningArg,
  ...mcpArg,
} as const satisfies ArgsDef;

/** `june chat --help`. */
export const chatHelp: CommandHelp = {
  summary: "Chat in the terminal, or answer one turn per line of stdin when it is not a terminal.",
  usage: ["june chat [<file>] [--model PROVIDER:ID] [--session ID] [--store DIR] [--json] [--yes | --deny]"],
  about: [
    "<file> is a chat module: its default export is a Chat, a Responder, or a function ({ model }) => either.",
    "With no file, a chat with --model. Sessions are kept in --store (default .june/chat); a session is",
    "made when its first turn starts, and its id is printed, so --session ID continues it.",
    "",
    MODEL_NOTE,
  ],
  examples: [
    ["june chat examples/offline.tsx", "the offline example (no key needed)"],
    ["june chat --model ollama:llama3.2", "a local Ollama (start it with ollama serve)"],
    ["june chat --model openai:gpt-5-mini --session 3f2a…", "continue a session"],
    ["printf 'Hi\\nAnd then?\\n' | june chat --model google:gemini-2.5-flash", "two turns from a pipe, one reply each"],
  ],
  sections: [
    { title: "IN THE CHAT", lines: [...replyCommandLines(), "Ctrl-C cancels a running turn; Ctrl-C at the prompt or Ctrl-D quits."] },
    { title: "EXIT CODES", lines: [EXIT_LINE] },
  ],
};

/** The REPL's commands, for `june chat --help`. */
function replyCommandLines(): string[] {
  const width = Math.max(...REPL_COMMANDS.map((command) => command.usage.length));
  return [
    ...REPL_COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.description}`),
    "A line starting with // is sent as it is, less one slash (//etc/hosts sends /etc/hosts).",
  ];
}

/**
 * `june chat [file]`: a conversation. On a terminal, a prompt with line editing (Ctrl-C cancels a running
 * turn, Ctrl-C at the prompt, Ctrl-D or /exit quits); otherwise every line of stdin is one turn and every
 * reply one block on stdout. Its work is imported when it runs.
 */
export function chatCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("chat", chatHelp),
    args: chatArgs,
    async run(context) {
      const [{ runChat }, { withMcpFlags }] = await Promise.all([import("./chat-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, (mcp) => runChat(io, context, mcp));
    },
  });
}
