// A worker process for the worker tests (run with `node --import tsx`): it runs the chat of ./worker-chat.tsx
// on a worker (`takeOverAfterMs: 10000`) and prints one JSON object a line on stdout.
//
// argv: <store schema> <queue schema> <log file> [<hang: "<step> <input>"> [plain]]
//   prints {"event":"started"} once it takes jobs, {"event":"job", ...outcome} after each job, and with a hang
//   given, {"event":"hanging"} when that model call starts, which then never returns (the test kills it).
//   SIGTERM stops it gracefully ({"event":"stopped"}).
import { createWorker } from "../index.js";
import { workerChat } from "./worker-chat.js";

const [storeSchema, queueSchema, log, hang, plain] = process.argv.slice(2) as [string, string, string, string?, string?];
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const { chat, queue } = workerChat({
  storeSchema,
  queueSchema,
  log,
  plain: plain === "plain",
  onModel: (step, input) => {
    if (hang !== `${step} ${input}`) return;
    say({ event: "hanging", step, input });
    return new Promise<void>(() => {});
  },
});
const worker = createWorker({
  chat,
  queue,
  concurrency: 2,
  takeOverAfterMs: 10_000,
  onJob: (outcome) => say({ event: "job", ...outcome }),
  onError: (error) => say({ event: "error", message: (error as Error).message }),
});
await worker.start();
say({ event: "started" });
process.once("SIGTERM", () => {
  void worker.stop().then(async () => {
    await queue.close();
    await chat.store.close?.();
    say({ event: "stopped" });
    process.exit(0);
  });
});
