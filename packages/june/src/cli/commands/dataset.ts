import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
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

/**
 * `june dataset [file] [--store DIR] [--out FILE] [--filter up|down|all] [--session ID]`. Its work is
 * imported when it runs.
 */
export function datasetCommand(io: CliIO) {
  return defineCommand({
    meta: {
      name: "dataset",
      description: "Print the completed turns of a store's sessions as eval cases, one JSON line each, credentials redacted",
    },
    args: datasetArgs,
    async run(context) {
      const { runDataset } = await import("./dataset-action.js");
      return runDataset(io, context);
    },
  });
}
