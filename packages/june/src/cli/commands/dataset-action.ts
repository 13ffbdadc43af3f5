import { open } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import type { CommandContext } from "citty";
import { createChat } from "../../chat/create-chat.js";
import type { Chat, Responder } from "../../chat/types.js";
import { dataset } from "../../learning/dataset.js";
import { toJSONLine } from "../../learning/jsonl.js";
import type { DatasetFilter, EvalCase } from "../../learning/types.js";
import { fileStore } from "../../stores/file-store.js";
import { optionalModuleArg } from "../args.js";
import { InvalidSessionIdError, SessionNotFoundError } from "../../stores/errors.js";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { DEFAULT_STORE_DIR, openSessionById, resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import type { datasetArgs } from "./dataset.js";

const FILTERS = ["up", "down", "all"] as const;

/** Sessions are only read here; nothing answers turns. */
const noResponder: Responder = {
  respond() {
    // Internal invariant: this command only reads sessions, so nothing ever asks it for a turn.
    throw new Error("june dataset does not answer turns");
  },
};

/** `--filter`, checked. */
export function parseFilter(value: string | undefined): Exclude<DatasetFilter, (...args: never[]) => unknown> {
  if (value === undefined) return "all";
  if ((FILTERS as readonly string[]).includes(value)) return value as (typeof FILTERS)[number];
  throw new CliUsageError(`--filter must be up, down or all, got "${value}"`);
}

/** Runs `june dataset` (see `datasetCommand`) and returns the exit code. */
export async function runDataset(io: CliIO, { args }: CommandContext<typeof datasetArgs>): Promise<number> {
  const file = optionalModuleArg(args._, "dataset");
  const filter = parseFilter(args.filter);
  const chat: Chat =
    file === undefined
      ? createChat({ responder: noResponder, store: fileStore(resolvePath(io.cwd, args.store ?? DEFAULT_STORE_DIR)) })
      : (await resolveChat({ io, file, store: args.store, command: "dataset" })).chat;
  // `--session` takes an id or a prefix only one session has, like every command that names a session.
  const session = args.session === undefined ? undefined : (await openSessionById(chat, args.session, "--session: ")).id;
  const cases = dataset(chat, { filter, ...(session !== undefined && { sessions: [session] }) });
  const screen = new Screen(io, { progress: false });
  // Redacted by the output gate (June's patterns, then JUNE_REDACT's), for stdout and --out alike.
  const line = (evalCase: EvalCase) => `${toJSONLine(io.redact(evalCase))}\n`;

  let count = 0;
  try {
    if (args.out === undefined) {
      for await (const evalCase of cases) {
        io.stdout.writeRedacted(line(evalCase));
        count++;
      }
    } else {
      const handle = await open(resolvePath(io.cwd, args.out), "w");
      try {
        for await (const evalCase of cases) {
          await handle.write(line(evalCase));
          count++;
        }
      } finally {
        await handle.close();
      }
    }
  } catch (error) {
    if (SessionNotFoundError.isInstance(error) || InvalidSessionIdError.isInstance(error)) {
      throw new CliUsageError(`--session: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
  const what = `${count} case${count === 1 ? "" : "s"}${filter === "all" ? "" : ` (${filter})`}`;
  screen.note(screen.err.dim(args.out === undefined ? what : `${what} written to ${args.out}`));
  return 0;
}
