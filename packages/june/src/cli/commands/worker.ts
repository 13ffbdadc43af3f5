import { defineCommand, type ArgsDef } from "citty";
import type { CliIO } from "../io.js";
import { commandMeta, EXIT_LINE, type CommandHelp } from "../help.js";
import { modelArgs, storeArg } from "./shared-args.js";

/** `--queue` and `--queue-schema`: where the queue is (`june worker`, `june schedule`). */
export const queueArgs = {
  queue: {
    type: "string",
    valueHint: "url",
    description: "The PostgreSQL database of the pg-boss queue (postgres://user@host:5432/db; default: JUNE_QUEUE_URL)",
  },
  "queue-schema": { type: "string", valueHint: "name", description: "The schema of pg-boss's tables (default: june_queue)" },
} as const satisfies ArgsDef;

/** `june worker`'s arguments. */
export const workerArgs = {
  file: { type: "positional", required: true, description: "The chat module whose turns to run (.ts, .tsx, .js, .mjs)" },
  ...queueArgs,
  concurrency: { type: "string", valueHint: "n", description: "How many turns (of different sessions) it runs at once (default: 4)" },
  "take-over-after": {
    type: "string",
    valueHint: "ms",
    description: "How long a silent worker keeps its turns before another takes them over, 10000 or more (default: 30000)",
  },
  ...modelArgs,
  ...storeArg,
} as const satisfies ArgsDef;

/** `june worker --help`. */
export const workerHelp: CommandHelp = {
  summary: "Run a chat's queued and scheduled turns, with no caller waiting (pg-boss on PostgreSQL, Node 22.12+).",
  usage: ["june worker <file> --queue postgres://… [--concurrency N] [--take-over-after MS] [--queue-schema NAME]"],
  about: [
    "Takes the turns session.enqueue, POST /sessions/:id/turns { background: true } and chat.schedule put on",
    "the queue and runs them with the chat the module exports: a session's turns one at a time, in order. A",
    "turn whose worker died is taken over after --take-over-after: a durable turn resumes from its checkpoint,",
    "one that is not durable stays interrupted. Each job's outcome is a line on stderr. Ctrl-C or SIGTERM",
    "stops it: it takes no more turns and waits for those it runs. See docs/workers.md.",
  ],
  examples: [
    ["june worker examples/offline.tsx --queue postgres://postgres@127.0.0.1:5432/app", "run the chat's queued turns"],
    ["june worker examples/offline.tsx --queue $DATABASE_URL --concurrency 8 --take-over-after 10000", "8 at once, taken over after 10 s"],
  ],
  sections: [{ title: "EXIT CODES", lines: [EXIT_LINE, "1 also when the queue cannot be reached."] }],
};

/** `june worker <file> --queue URL`: runs the chat's queued turns until stopped. Its work is imported when it runs. */
export function workerCommand(io: CliIO) {
  return defineCommand({
    meta: commandMeta("worker", workerHelp),
    args: workerArgs,
    async run(context) {
      const { runWorker } = await import("./worker-action.js");
      return runWorker(io, context);
    },
  });
}
