import type { CommandContext } from "citty";
import { CliUsageError } from "../errors.js";
import type { CliIO } from "../io.js";
import { resolveChat } from "../resolve-chat.js";
import { Screen } from "../screen.js";
import type { queueArgs, workerArgs } from "./worker.js";
import type { TurnQueue } from "../../chat/queue/queue.js";

/** The queue `--queue` (or JUNE_QUEUE_URL) and `--queue-schema` name. */
export async function queueOf(io: CliIO, args: { queue?: string; "queue-schema"?: string }, command: string): Promise<TurnQueue> {
  const connectionString = args.queue ?? io.env.JUNE_QUEUE_URL;
  if (connectionString === undefined || connectionString === "") {
    throw new CliUsageError(`june ${command} needs the queue: --queue postgres://user@host:5432/db (or set JUNE_QUEUE_URL)`);
  }
  const { pgBossQueue } = await import("../../worker/pg-boss-queue.js");
  try {
    return pgBossQueue({ connectionString, ...(args["queue-schema"] !== undefined ? { schema: args["queue-schema"] } : {}) });
  } catch (error) {
    throw new CliUsageError(`--queue: ${(error as Error).message}`);
  }
}

/** A whole number flag, or its default. */
function wholeNumber(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliUsageError(`${flag} must be a whole number, ${min} or more, got "${value}"`);
  return n;
}

/** Runs `june worker <file> --queue URL` (see `workerCommand`) until Ctrl-C or SIGTERM; returns the exit code. */
export async function runWorker(io: CliIO, { args }: CommandContext<typeof workerArgs & typeof queueArgs>): Promise<number> {
  const concurrency = wholeNumber(args.concurrency, "--concurrency", 4, 1);
  const takeOverAfterMs = wholeNumber(args["take-over-after"], "--take-over-after", 30_000, 10_000);
  const queue = await queueOf(io, args, "worker");
  const { chat, label } = await resolveChat({ io, file: args.file, model: args.model, baseUrl: args["base-url"], store: args.store, command: "worker" });
  const { createWorker } = await import("../../worker/create-worker.js");
  const screen = new Screen(io);
  const worker = createWorker({
    chat,
    queue,
    concurrency,
    takeOverAfterMs,
    onJob: (outcome) => screen.note(screen.err.dim(JSON.stringify(outcome))),
    onError: (error) => screen.note(screen.err.red(`job failed (the queue runs it again): ${(error as Error).message}`)),
  });
  try {
    await worker.start();
  } catch (error) {
    await queue.close().catch(() => undefined);
    throw error;
  }
  screen.note(`worker for ${label} on ${queue.description}: ${concurrency} at once`);
  screen.note(screen.err.dim("Ctrl-C or SIGTERM stops it"));
  const onTerm = () => io.interrupt();
  process.once("SIGTERM", onTerm);
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
      return true;
    });
  });
  process.off("SIGTERM", onTerm);
  screen.note(screen.err.dim("stopping: waiting for the turns it runs"));
  await worker.stop();
  await queue.close();
  return 0;
}
