import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, type CommandHelp } from "../help.js";
import { storeArg } from "./shared-args.js";

/** `june dataset`'s arguments. */
export const datasetArgs = {
  file: {
    type: "positional",
    required: false,
    description: "A chat module whose chat's sessions to read (default: the sessions in --store)",
  },
  ...storeArg,
  out: { type: "string", valueHint: "file", description: "Write the cases to this file instead of stdout" },
  filter: {
    type: "string",
    valueHint: "up|down|all",
    description: "up: turns with a thumbs-up (feedback above 0.5), down: a thumbs-down (below 0.5), all: every completed turn (default)",
  },
  session: { type: "string", valueHint: "id", description: "Only this session" },
} as const satisfies ArgsDef;

/** `june dataset --help`. */
export const datasetHelp: CommandHelp = {
  summary: "Print the completed turns of a store's sessions as eval cases, one JSON line each, credentials redacted.",
  usage: ["june dataset [<file>] [--store DIR] [--out FILE] [--filter up|down|all] [--session ID]"],
  examples: [
    ["june dataset --filter up --out cases.jsonl", "the turns that got a thumbs-up"],
    ["june dataset examples/offline.tsx --session 3f2a…", "one session of a module's own store"],
  ],
};

/**
 * `june dataset [file] [--store DIR] [--out FILE] [--filter up|down|all] [--session ID]`. Its work is
 * imported when it runs.
 */
export function datasetCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("dataset", datasetHelp),
    args: datasetArgs,
    async run(context) {
      const { runDataset } = await import("./dataset-action.js");
      return runDataset(io, context);
    },
  });
}
