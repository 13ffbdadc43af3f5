/**
 * Spawns the BUILT `june` (see built-bin.ts) as a real process: piped, or on a pseudo-terminal through
 * util-linux `script`, whose input is typed as if at a keyboard.
 */
import { spawn } from "node:child_process";
import { bin } from "./built-bin.js";

export interface Spawned {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  write(text: string): void;
  kill(signal: NodeJS.Signals): void;
}

export interface SpawnJuneOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Piped stdin, ended at once (default: empty). Ignored with `terminal`. */
  stdin?: string;
  /** Runs on a pseudo-terminal: stdout and stderr both arrive on `stdout()`, and `write` types. */
  terminal?: boolean;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts `june ...args`. */
export function spawnJune(args: string[], options: SpawnJuneOptions): Spawned {
  const env = { PATH: process.env.PATH ?? "", HOME: options.cwd, ...options.env };
  const child = options.terminal
    ? spawn("script", ["-qefc", [process.execPath, bin, ...args].map(quote).join(" "), "/dev/null"], {
        cwd: options.cwd,
        env: { TERM: "xterm-256color", NO_COLOR: "1", ...env },
        stdio: ["pipe", "pipe", "pipe"],
      })
    : spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  if (!options.terminal) child.stdin.end(options.stdin ?? "");
  return {
    code: new Promise((resolve) => child.on("close", (code) => resolve(code))),
    stdout: () => stdout,
    stderr: () => stderr,
    write: (text) => child.stdin.write(text),
    kill: (signal) => child.kill(signal),
  };
}

/** Waits until `check()` holds (about 30 s at most). */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}
