import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { mcpArg, runModelArgs, turnArgs } from "./shared-args.js";

/** `june run`'s arguments. */
export const runArgs = {
  file: {
    type: "positional",
    required: true,
    description: "A module whose default export is a workflow element or a component that takes { input, model }",
  },
  input: { type: "string", valueHint: "text", description: "The input, passed to the component as { input }" },
  ...runModelArgs,
  ...turnArgs,
  ...mcpArg,
} as const satisfies ArgsDef;

/**
 * `june run <file>`: runs a workflow once. Its output, the result of the step that finished last (a string
 * as it is, anything else as JSON), goes to stdout; progress and approvals to stderr. Its work is imported
 * when it runs.
 */
export function runCommand(io: CliIO) {
  return defineCommand({
    meta: {
      name: "run",
      description: "Run a workflow once; the result of the step that finished last goes to stdout",
    },
    args: runArgs,
    async run(context) {
      const [{ runWorkflow }, { withMcpFlags }] = await Promise.all([import("./run-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, () => runWorkflow(io, context));
    },
  });
}
