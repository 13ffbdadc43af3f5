import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, MODEL_NOTE, type CommandHelp } from "../help.js";
import { modelArgs, storeArg } from "./shared-args.js";

/** `june studio`'s arguments. */
export const studioArgs = {
  file: {
    type: "positional",
    required: false,
    description: "A chat module (.ts, .tsx, .js, .mjs) whose default export is a Chat, a Responder, or a function ({ model }) => either",
  },
  ...modelArgs,
  ...storeArg,
  port: { type: "string", valueHint: "n", description: "The port (default: a free one)" },
  host: { type: "string", valueHint: "host", description: "The interface to listen on (default: 127.0.0.1)" },
  open: { type: "boolean", description: "Open the URL in a browser" },
  token: {
    type: "string",
    valueHint: "token",
    description: "The access token (or JUNE_STUDIO_TOKEN; default: the one this store's Studio had last time, kept in <store>.studio.json)",
  },
} as const satisfies ArgsDef;

/** `june studio --help`. */
export const studioHelp: CommandHelp = {
  summary: "Serve June Studio, a local web app for one chat, until Ctrl-C.",
  usage: ["june studio [<file>] [--model PROVIDER:ID] [--store DIR] [--port N] [--host 127.0.0.1] [--open]"],
  about: [
    "It listens on 127.0.0.1 and prints a URL with a token; open that URL (a page without the token is",
    "refused). The chat is the one june chat would talk to.",
    "",
    MODEL_NOTE,
  ],
  examples: [
    ["june studio examples/offline.tsx --open", "the offline example, in your browser"],
    ["june studio --model openai:gpt-5-mini --port 4000", "a model chat on a fixed port"],
  ],
};

/** `june studio [file]`: serves June Studio for one chat until Ctrl-C. The server is imported when it runs. */
export function studioCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("studio", studioHelp),
    args: studioArgs,
    async run(context) {
      const { runStudio } = await import("./studio-action.js");
      return runStudio(io, context);
    },
  });
}
