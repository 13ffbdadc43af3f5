import { createInterface, type Interface } from "node:readline";
import type { CliIO } from "./io.js";

/** Reads lines from stdin: the chat REPL's input and the answers to approval prompts. */
export interface LineReader {
  /** True when it reads from a terminal (with line editing, Ctrl-C trapped and passed to `io.interrupt`). */
  readonly terminal: boolean;
  /**
   * Shows `prompt` on stderr and reads one line. `undefined` at the end of input, or when `signal` aborts.
   * Lines typed ahead, before the question, are dropped when `fresh` is set (an approval must be answered
   * after it was asked).
   */
  question(prompt: string, options?: { signal?: AbortSignal; fresh?: boolean }): Promise<string | undefined>;
  /** Stops reading; the terminal goes back to its normal mode. */
  close(): void;
}

/** A `LineReader` over `io.stdin`, with readline's line editing when stdin and stderr are terminals. */
export function createLineReader(io: CliIO): LineReader {
  const terminal = io.stdin.isTTY && io.stderr.isTTY && io.stderr.stream !== undefined;
  const rl: Interface = createInterface({
    input: io.stdin.stream,
    output: terminal ? io.stderr.stream : undefined,
    terminal,
    historySize: terminal ? 100 : 0,
  });
  const queue: string[] = [];
  let waiter: ((line: string | undefined) => void) | undefined;
  let closed = false;

  rl.on("line", (line) => {
    if (waiter) {
      const resolve = waiter;
      waiter = undefined;
      resolve(line);
    } else queue.push(line);
  });
  rl.on("close", () => {
    closed = true;
    const resolve = waiter;
    waiter = undefined;
    resolve?.(undefined);
  });
  // On a terminal readline reads Ctrl-C as a key; hand it on as the interrupt it means.
  rl.on("SIGINT", () => io.interrupt());

  return {
    terminal,
    question(prompt, options = {}) {
      if (options.fresh) queue.length = 0;
      if (queue.length > 0) return Promise.resolve(queue.shift());
      if (closed) return Promise.resolve(undefined);
      if (options.signal?.aborted) return Promise.resolve(undefined);
      if (terminal) {
        rl.setPrompt(prompt);
        rl.prompt();
      } else if (prompt) {
        io.stderr.write(prompt);
      }
      return new Promise((resolve) => {
        const onAbort = () => {
          if (waiter !== finish) return;
          waiter = undefined;
          if (terminal) io.stderr.write("\n");
          resolve(undefined);
        };
        const finish = (line: string | undefined) => {
          options.signal?.removeEventListener("abort", onAbort);
          resolve(line);
        };
        waiter = finish;
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    close() {
      if (!closed) rl.close();
    },
  };
}
