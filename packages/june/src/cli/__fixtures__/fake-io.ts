import { PassThrough } from "node:stream";
import type { CliIO } from "../io.js";

/** A `CliIO` for tests: captured output, a writable stdin, recorded exits and interrupts. */
export interface FakeIO extends CliIO {
  readonly out: string[];
  readonly err: string[];
  /** Write here to type into stdin. */
  readonly input: PassThrough;
  readonly exits: number[];
  stdoutText(): string;
  stderrText(): string;
}

export interface FakeIOOptions {
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  columns?: number;
  /** stdout and stderr go to one place (`2>&1`). */
  outputsShared?: boolean;
}

export function createFakeIO(options: FakeIOOptions = {}): FakeIO {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const input = new PassThrough();
  const listeners: (() => boolean)[] = [];
  const io: FakeIO = {
    out,
    err,
    input,
    exits,
    stdout: { write: (text) => void out.push(text), isTTY: options.stdoutTTY ?? false, columns: options.columns },
    stderr: { write: (text) => void err.push(text), isTTY: options.stderrTTY ?? false, columns: options.columns },
    stdin: { isTTY: options.stdinTTY ?? false, stream: input },
    env: options.env ?? {},
    ...(options.outputsShared === undefined ? {} : { outputsShared: options.outputsShared }),
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(listener) {
      listeners.push(listener);
      return () => {
        const index = listeners.lastIndexOf(listener);
        if (index !== -1) listeners.splice(index, 1);
      };
    },
    interrupt() {
      for (const listener of [...listeners].reverse()) if (listener()) return;
      io.exit(130);
    },
    exit(code): never {
      exits.push(code);
      throw new Error(`exit ${code}`);
    },
    stdoutText: () => out.join(""),
    stderrText: () => err.join(""),
  };
  return io;
}
