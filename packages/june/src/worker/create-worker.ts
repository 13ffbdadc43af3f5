import type { Chat, Turn } from "../chat/types.js";
import type { TextRedactOptions } from "../redaction/redact.js";
import type { TurnEventBus } from "../server/turn-event-bus.js";
import { LocalTurn } from "../server/turn-registry.js";
import { runJob, type JobOutcome } from "./run-job.js";
import { isTurnQueue, type QueueJob, type TurnQueue, type WorkHandle } from "../chat/queue/queue.js";

/** Options of `createWorker`. */
export interface WorkerOptions {
  /** The chat whose turns the worker runs (the same chat module the HTTP server serves). */
  chat: Chat;
  /** The queue to take turns from: the one the chat enqueues on (`createChat({ queue })`). */
  queue: TurnQueue;
  /** How many turns (of different sessions) this worker runs at once. Default: 4. */
  concurrency?: number;
  /**
   * How long this worker may be silent before its turns go to another worker, in milliseconds: at least
   * 10,000 (pg-boss's heartbeat floor). Default: 30,000. The store's lease (`leaseTtlMs`) should be no longer,
   * or a taken-over turn waits for the dead worker's lease to expire.
   */
  takeOverAfterMs?: number;
  /**
   * Where the turns this worker runs are shared with the chat's HTTP servers: the bus their handlers have
   * (`createChatHandler(chat, { turnEvents })`), e.g. `redisTurnEvents({ url })` from `june/server/redis`. A
   * client of any server then follows a worker's turn (`GET /turns/:id/events`, `runningTurnId`) and approves,
   * denies, answers, steers or cancels it there. Without it, a worker's turns are seen through their records only.
   */
  turnEvents?: TurnEventBus;
  /** Patterns of your own, masked after June's in every event the worker shares (as the handler's `redact`). */
  redact?: TextRedactOptions;
  /** Called after each job with what became of it (for logs). */
  onJob?: (outcome: JobOutcome, job: QueueJob) => void;
  /** Called when a job fails (the queue runs it again). */
  onError?: (error: unknown, job: QueueJob) => void;
}

/** A worker: `start()` takes jobs, `stop()` takes no more and waits for the ones it runs to end. */
export interface Worker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** How many jobs it runs now. */
  readonly running: number;
}

/**
 * Runs a chat's queued and scheduled turns, with no caller waiting: turns of one session one at a time, in the
 * order they were enqueued, and a turn whose worker died (SIGKILL, a lost machine) taken over within about
 * `takeOverAfterMs`: a durable turn resumes from its checkpoint; one that is not durable stays `interrupted`.
 *
 * @example
 * const worker = createWorker({ chat, queue, concurrency: 4 });
 * await worker.start();
 * process.once("SIGTERM", () => void worker.stop());
 */
export function createWorker(options: WorkerOptions): Worker {
  if (typeof options !== "object" || options === null) throw new TypeError("createWorker(options): options must be an object with `chat` and `queue`");
  const { chat, queue, concurrency = 4, takeOverAfterMs = 30_000, onJob, onError, turnEvents, redact = {} } = options;
  if (typeof chat !== "object" || chat === null || typeof chat.openSession !== "function") throw new TypeError("createWorker({ chat }): chat must be made by createChat");
  if (!isTurnQueue(queue)) throw new TypeError("createWorker({ queue }): queue must be made by june/worker (pgBossQueue)");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000) throw new TypeError(`createWorker({ concurrency }): must be a whole number from 1 to 1000, got ${String(concurrency)}`);
  if (typeof takeOverAfterMs !== "number" || !Number.isFinite(takeOverAfterMs) || takeOverAfterMs < 10_000) {
    throw new TypeError(`createWorker({ takeOverAfterMs }): must be a number of milliseconds, 10000 or more, got ${String(takeOverAfterMs)}`);
  }
  if (turnEvents !== undefined && (typeof turnEvents !== "object" || turnEvents === null || typeof turnEvents.publish !== "function")) {
    throw new TypeError("createWorker({ turnEvents }): must be a turn-event bus (redisTurnEvents from june/server/redis)");
  }
  const publish = turnEvents ? (turn: Turn) => turnEvents.publish(new LocalTurn(turn, Date.now, redact)) : undefined;
  let handle: WorkHandle | undefined;
  let starting: Promise<void> | undefined;
  let running = 0;
  return {
    get running() {
      return running;
    },
    start() {
      starting ??= queue
        .work(
          async (job, { signal, jobId }) => {
            running++;
            try {
              const outcome = await runJob(job, { chat, queue, signal, jobId, retryMs: 250, maxWaitMs: Math.max(120_000, takeOverAfterMs * 4), ...(publish ? { publish } : {}) });
              onJob?.(outcome, job);
            } catch (error) {
              onError?.(error, job);
              throw error;
            } finally {
              running--;
            }
          },
          { concurrency, takeOverAfterMs },
        )
        .then((h) => {
          handle = h;
        });
      return starting;
    },
    async stop() {
      if (starting) await starting.catch(() => undefined);
      await handle?.stop();
    },
  };
}
