import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { modelArgs } from "./shared-args.js";

/** The scorers `--scorer` may name. */
export const SCORER_HELP =
  "exactMatch (the default), includes, jsonMatch, includes:TEXT, regex:PATTERN, or a name from the module's `scorers` export";

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

/**
 * `june eval <file> <cases.jsonl> [--scorer NAME ...] [--concurrency N] [--threshold N] [--json] [--out FILE]
 * [--min N]`. Its work is imported when it runs.
 */
export function evalCommand(io: CliIO) {
  return defineCommand({
    meta: {
      name: "eval",
      description: "Answer eval cases with a chat's responder and score the replies; exits 1 when a scorer's mean misses --min",
    },
    args: evalArgs,
    async run(context) {
      const { runEval } = await import("./eval-action.js");
      return runEval(io, context);
    },
  });
}
