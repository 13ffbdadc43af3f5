// A worker process for the worker tests (run with `node --import tsx`): it runs the chat of ./worker-chat.tsx
// on a worker (`takeOverAfterMs: 10000`) and prints one JSON object a line on stdout.
//
// argv[2]: a JSON `ChildOptions` (the chat's schemas, log and shape, and what to hang or die at).
//   prints {"event":"started"} once it takes jobs, {"event":"job", ...outcome} after each job, and with `hang`,
//   {"event":"hanging"} when that model call starts, which then never returns (the test kills it). With `kills`,
//   it kills itself (SIGKILL) at a turn's moment, once per turn across every worker (a marker file says it
//   happened). With `redis`, its turns are shared on a `redisTurnEvents` bus. SIGTERM stops it gracefully
//   ({"event":"stopped"}).
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { redisTurnEvents } from "../../server/redis/index.js";
import { createWorker } from "../index.js";
import { workerChat, type WorkerChatOptions } from "./worker-chat.js";

/** Where a turn's worker dies: as its first model call starts, after its first streamed delta, or as the call after its tool starts. */
export type KillMoment = "before-model" | "mid-stream" | "after-tool";

export interface ChildOptions extends Pick<WorkerChatOptions, "storeSchema" | "queueSchema" | "log" | "shape" | "plain" | "approval"> {
  /** `"<step> <input>"`: the model call to hang in. */
  hang?: string;
  /** The turns (by input) to die in, and where; `markers` is the folder of the once-per-turn marker files. */
  kills?: { input: string; moment: KillMoment }[];
  markers?: string;
  redis?: { url: string; prefix: string };
  /** The worker's concurrency (default 2). */
  concurrency?: number;
}

const options = JSON.parse(process.argv[2]!) as ChildOptions;
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const kills = new Map((options.kills ?? []).map((k) => [k.input, k.moment]));

/** Dies (SIGKILL) here when this is the turn's moment and no worker died at it yet. */
function maybeDie(moment: KillMoment, input: string): void {
  if (kills.get(input) !== moment) return;
  const marker = join(options.markers!, createHash("sha1").update(input).digest("hex"));
  try {
    closeSync(openSync(marker, "wx"));
  } catch {
    return; // Another worker died at it already.
  }
  say({ event: "dying", moment, input });
  process.kill(process.pid, "SIGKILL");
}

const { chat, queue } = workerChat({
  ...options,
  beforeModel: (step, input) => {
    if (step === "act" || step === "plan") maybeDie("before-model", input);
    if (step === "reply" && options.shape === "tool") maybeDie("after-tool", input);
  },
  onModel: (step, input) => {
    if (options.hang !== `${step} ${input}`) return;
    say({ event: "hanging", step, input });
    return new Promise<void>(() => {});
  },
  ...(options.kills ? { midStream: (_step: string, input: string) => maybeDie("mid-stream", input) } : {}),
});
const turnEvents = options.redis ? redisTurnEvents({ url: options.redis.url }, { prefix: options.redis.prefix, presenceTtlMs: 3000 }) : undefined;
const worker = createWorker({
  chat,
  queue,
  concurrency: options.concurrency ?? 2,
  takeOverAfterMs: 10_000,
  ...(turnEvents ? { turnEvents } : {}),
  onJob: (outcome) => say({ event: "job", ...outcome }),
  onError: (error) => say({ event: "error", message: (error as Error).message }),
});
await worker.start();
await turnEvents?.ready();
say({ event: "started" });
process.once("SIGTERM", () => {
  void worker.stop().then(async () => {
    await queue.close();
    await chat.store.close?.();
    await turnEvents?.close();
    say({ event: "stopped" });
    process.exit(0);
  });
});
