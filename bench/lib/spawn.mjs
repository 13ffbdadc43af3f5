/** Spawning child processes and timing them: wall time to the first stdout byte and to exit. */
import { spawn } from "node:child_process";

/**
 * Runs a command to its end and returns its stdout, stderr, exit code, and wall times (ms) to the first
 * stdout byte and to exit. Rejects when it exits non-zero (unless `allowFailure`).
 */
export function timeProcess(command, args, { cwd, env, input, allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let firstByteMs;
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => {
      if (firstByteMs === undefined) firstByteMs = performance.now() - start;
      out.push(chunk);
    });
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const exitMs = performance.now() - start;
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8");
      if (code !== 0 && !allowFailure) {
        reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr.trim().slice(-800)}`));
        return;
      }
      resolve({ code, stdout, stderr, firstByteMs, exitMs });
    });
    child.stdin.end(input ?? "");
  });
}

/** Runs a child that prints one JSON line and returns it parsed. */
export async function jsonChild(args, options) {
  const { stdout } = await timeProcess(process.execPath, args, options);
  const line = stdout.trim().split("\n").at(-1);
  return JSON.parse(line);
}
