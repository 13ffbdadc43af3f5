// Worker processes for the worker tests: each runs ./worker-child.tsx with its options, its stdout read as one
// JSON event a line; and what the tests read back (a session's turns, bounded; the model and tool log).
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { Chat, TurnRecord } from "../../chat/types.js";
import type { ChildOptions } from "./worker-child.js";

const packageDir = fileURLToPath(new URL("../../..", import.meta.url));
const fixture = fileURLToPath(new URL("./worker-child.tsx", import.meta.url));

export interface WorkerProcess {
  proc: ChildProcessByStdio<null, Readable, null>;
  events: Record<string, unknown>[];
  /** Resolves with the first event of this type (already printed or to come). */
  next(event: string): Promise<Record<string, unknown>>;
  exited: Promise<void>;
}

/** Starts worker processes with the options given (over `base`), and ends every one left at `killAll`. */
export function workerProcesses(base: ChildOptions) {
  const all: WorkerProcess[] = [];
  const start = (options: Partial<ChildOptions> = {}): WorkerProcess => {
    const proc = spawn(process.execPath, ["--import", "tsx", fixture, JSON.stringify({ ...base, ...options })], {
      cwd: packageDir,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const events: Record<string, unknown>[] = [];
    const waiters: { event: string; resolve(value: Record<string, unknown>): void }[] = [];
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    void (async () => {
      for await (const line of createInterface({ input: proc.stdout })) {
        const value = JSON.parse(line) as Record<string, unknown>;
        events.push(value);
        for (const w of waiters.splice(0)) (w.event === value.event ? w.resolve(value) : waiters.push(w));
      }
    })();
    const worker: WorkerProcess = {
      proc,
      events,
      exited,
      next: (event) => {
        const found = events.find((e) => e.event === event);
        if (found) return Promise.resolve(found);
        return new Promise((resolve, reject) => {
          waiters.push({ event, resolve });
          void exited.then(() => reject(new Error(`worker exited before printing ${event}`)));
        });
      },
    };
    all.push(worker);
    return worker;
  };
  return {
    start,
    all,
    /** SIGKILL. */
    async kill(worker: WorkerProcess): Promise<void> {
      worker.proc.kill("SIGKILL");
      await worker.exited;
    },
    /** Stops a worker gracefully (SIGTERM): it completes its jobs first, so none is left to take over. */
    async stop(worker: WorkerProcess): Promise<void> {
      worker.proc.kill("SIGTERM");
      await worker.exited;
    },
    async killAll(): Promise<void> {
      for (const w of all) if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill("SIGKILL");
      await Promise.all(all.map((w) => w.exited));
    },
  };
}

/** Waits (bounded) until the session's turns satisfy `done`. */
export async function turnsWhen(chat: Chat, sessionId: string, done: (turns: TurnRecord[]) => boolean, limitMs = 60_000): Promise<TurnRecord[]> {
  const until = Date.now() + limitMs;
  for (;;) {
    const turns = await (await chat.openSession(sessionId)).turns();
    if (done(turns)) return turns;
    if (Date.now() > until) throw new Error(`session ${sessionId}: turns not done after ${limitMs} ms: ${JSON.stringify(turns.map((t) => [t.input, t.status]))}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The log's lines for one input (`<pid> <step> <input>`): the model calls and tool runs, in order. */
export function logged(log: string, input: string): { pid: number; step: string }[] {
  return (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [])
    .map((line) => line.split(" "))
    .filter(([, , ...rest]) => rest.join(" ") === input)
    .map(([pid, step]) => ({ pid: Number(pid), step: step! }));
}
