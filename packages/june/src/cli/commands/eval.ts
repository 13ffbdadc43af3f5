import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, MODEL_NOTE, type CommandHelp } from "../help.js";
import { SCORER_HELP } from "./scorer-flag.js";
import { modelArgs } from "./shared-args.js";

/** `june eval`'s arguments. */
export const evalArgs = {
  file: {
    type: "positional",
    required: true,
    description: "A chat module whose default export is a Chat, a Responder, or a function ({ model }) => either; a `scorers` export adds scorers",
  },
  cases: { type: "positional", required: true, description: "The cases, as JSON lines (what june dataset writes)" },
  ...modelArgs,
  model: {
    ...modelArgs.model,
    description: "The model, passed to the module when its default export is a function ({ model }) => Chat | Responder (default: JUNE_MODEL)",
  },
  scorer: { type: "string", valueHint: "name", description: `A scorer, repeatable: ${SCORER_HELP}` },
  concurrency: { type: "string", valueHint: "n", description: "How many cases run at once (default 4)" },
  threshold: { type: "string", valueHint: "n", description: "The score a case needs to pass, 0 to 1 (default 0.5)" },
  min: { type: "string", valueHint: "n", description: "Exit 1 when any scorer's mean is below N (0 to 1)" },
  json: { type: "boolean", description: "Print the whole report as JSON on stdout instead of the table" },
  out: { type: "string", valueHint: "file", description: "Write the whole report (JSON) to this file" },
} as const satisfies ArgsDef;

/** `june eval --help`. */
export const evalHelp: CommandHelp = {
  summary: "Answer eval cases with a chat's responder and score the replies.",
  usage: ["june eval <file> <cases.jsonl> [--scorer NAME ...] [--concurrency N] [--threshold N] [--min N] [--json] [--out FILE]"],
  about: [
    "Both arguments are required: <file> is the chat module whose responder answers each case, <cases.jsonl>",
    "the cases (what june dataset writes). A `scorers` export of the module adds scorers.",
    "",
    MODEL_NOTE,
  ],
  examples: [
    ["june eval examples/offline.tsx cases.jsonl", "score with exactMatch (cases.jsonl as june dataset writes it)"],
    ["june eval examples/offline.tsx cases.jsonl --scorer includes --min 0.8", "fail (exit 1) below a mean of 0.8"],
    ["june eval examples/offline.tsx cases.jsonl --model openai:gpt-5-mini --json > report.json", "a whole report as JSON"],
  ],
  sections: [
    { title: "EXIT CODES", lines: ["0 done · 1 a scorer's mean missed --min · 2 bad usage, a bad cases file or configuration · 130 canceled"] },
  ],
};

/**
 * `june eval <file> <cases.jsonl> [--scorer NAME ...] [--concurrency N] [--threshold N] [--json] [--out FILE]
 * [--min N]`. Its work is imported when it runs.
 */
export function evalCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("eval", evalHelp),
    args: evalArgs,
    async run(context) {
      const { runEval } = await import("./eval-action.js");
      return runEval(io, context);
    },
  });
}
