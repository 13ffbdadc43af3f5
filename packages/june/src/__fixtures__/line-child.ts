import { spawn, type ChildProcessByStdio } from "node:child_process";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/**
 * A child that speaks in lines: a script run by Node through tsx in another process (from the package's
 * folder), read a line at a time from its stdout and written to a line at a time on its stdin. The process
 * tests share it (the file and SQLite stores', the chat's, the Redis servers'); `killLineChildren` in an
 * `afterEach` kills what a test left running.
 */
export interface LineChild {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  /** Settles when the process has exited. */
  readonly exited: Promise<void>;
  /** The next line it prints; an error naming the script when it ended first. */
  next(): Promise<string>;
  /** Writes `line` (and a newline) to its stdin. */
  send(line: string): void;
}

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
/** The children spawned in this test file (a test file's modules are its own). */
const children: ChildProcessByStdio<Writable, Readable, null>[] = [];

export function spawnLineChild(script: string, args: readonly string[]): LineChild {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: packageDir, stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    exited,
    async next() {
      const { value, done } = await lines.next();
      if (done) throw new Error(`${basename(script)} ended without printing`);
      return value;
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
  };
}

/** Kills (SIGKILL) every child spawned here that is still running. */
export function killLineChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
