import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, EXIT_LINE, MODEL_NOTE, type CommandHelp } from "../help.js";
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

/** `june run --help`. */
export const runHelp: CommandHelp = {
  summary: "Run a workflow once; the result of the step that finished last goes to stdout.",
  usage: ["june run <file> [--input TEXT] [--model PROVIDER:ID] [--json] [--yes | --deny]"],
  about: [
    "<file> is a .ts, .tsx, .js or .mjs module, loaded as it is (no build step). Its default export is a",
    "workflow element, or a component that takes { input, model }. A string result prints as it is, anything",
    "else as JSON. Tool approvals are asked on stderr.",
    "",
    MODEL_NOTE,
  ],
  examples: [
    ["june run examples/first-workflow.tsx --input \"the bicycle\"", "the README's first workflow, offline"],
    ["june run examples/first-workflow.tsx --input \"solar sails\" --model anthropic:claude-sonnet-4-5", "the component gets { input, model }"],
    ["june run examples/first-workflow.tsx --input \"solar sails\" --json | jq -c 'select(.type == \"run-end\")'", "the events as JSON lines"],
  ],
  sections: [{ title: "EXIT CODES", lines: [EXIT_LINE] }],
};

/**
 * `june run <file>`: runs a workflow once. Its output, the result of the step that finished last (a string
 * as it is, anything else as JSON), goes to stdout; progress and approvals to stderr. Its work is imported
 * when it runs.
 */
export function runCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("run", runHelp),
    args: runArgs,
    async run(context) {
      const [{ runWorkflow }, { withMcpFlags }] = await Promise.all([import("./run-action.js"), import("../mcp-flags.js")]);
      return withMcpFlags(io, context.rawArgs, () => runWorkflow(io, context));
    },
  });
}
