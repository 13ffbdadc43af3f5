import { PassThrough } from "node:stream";
import type { TextRedactOptions } from "../../redaction/redact.js";
import type { CliIO, ProcessIO } from "../io.js";
import { outputGate } from "../output-gate.js";
import { redactOptionsOf } from "../redact-patterns.js";

/**
 * A `CliIO` for tests: captured output, a writable stdin, recorded exits and interrupts. It stands behind the
 * output gate (with `env`'s JUNE_REDACT), as a command's io does; `runCli` gates its process streams anew, so
 * `out` and `err` hold what left the gate, once.
 */
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
  const io: ProcessIO = {
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
  };
  let redaction: TextRedactOptions = {};
  try {
    redaction = redactOptionsOf(io.env);
  } catch {
    // A bad JUNE_REDACT is runCli's usage error to report.
  }
  return Object.assign(outputGate(io, redaction), { out, err, input, exits, stdoutText: () => out.join(""), stderrText: () => err.join("") });
}
