#!/usr/bin/env node
/**
 * The `june` executable: the one place the CLI touches `process`. It builds the `CliIO` every command
 * gets (streams, environment, working directory, Ctrl-C, exit) and exits with `runCli`'s code.
 */
import { fstatSync } from "node:fs";
import type { ProcessIO } from "./io.js";
import { runCli } from "./main.js";

const interruptListeners: (() => boolean)[] = [];

function interrupt(): void {
  for (const listener of [...interruptListeners].reverse()) {
    if (listener()) return;
  }
  exit(130);
}

function exit(code: number): never {
  process.exit(code);
}

process.on("SIGINT", interrupt);
// A reader that went away (`june ask … | head -1`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

/** True when two file descriptors are one file, pipe or terminal (`2>&1`, or a terminal's stdout and stderr). */
function sameFile(a: number, b: number): boolean {
  try {
    const [x, y] = [fstatSync(a), fstatSync(b)];
    return x.dev === y.dev && x.ino === y.ino && x.rdev === y.rdev;
  } catch {
    return false;
  }
}

const io: ProcessIO = {
  stdout: {
    write: (text) => void process.stdout.write(text),
    get isTTY() {
      return process.stdout.isTTY === true;
    },
    get columns() {
      return process.stdout.columns;
    },
    stream: process.stdout,
  },
  stderr: {
    write: (text) => void process.stderr.write(text),
    get isTTY() {
      return process.stderr.isTTY === true;
    },
    get columns() {
      return process.stderr.columns;
    },
    stream: process.stderr,
  },
  stdin: {
    isTTY: process.stdin.isTTY === true,
    stream: process.stdin,
  },
  env: process.env,
  outputsShared: sameFile(1, 2),
  cwd: process.cwd(),
  onInterrupt(listener) {
    interruptListeners.push(listener);
    return () => {
      const index = interruptListeners.lastIndexOf(listener);
      if (index !== -1) interruptListeners.splice(index, 1);
    };
  },
  interrupt,
  exit,
  async editText(text, editor) {
    // Imported here: only an edit at an approval prompt opens an editor.
    const [{ spawnSync }, { mkdtempSync, readFileSync, rmSync, writeFileSync }, { tmpdir }, { join }] = await Promise.all([
      import("node:child_process"),
      import("node:fs"),
      import("node:os"),
      import("node:path"),
    ]);
    const dir = mkdtempSync(join(tmpdir(), "june-edit-"));
    const file = join(dir, "input.json");
    try {
      writeFileSync(file, text, { mode: 0o600 });
      const run = spawnSync(`${editor} "${file}"`, { stdio: "inherit", shell: true });
      if (run.status !== 0) return undefined;
      return readFileSync(file, "utf8");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  openUrl(url) {
    const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
    // Imported here: most commands never open a browser.
    void import("node:child_process")
      .then(({ spawn }) => spawn(command, [url], { stdio: "ignore", detached: true }).on("error", () => {}).unref())
      .catch(() => {
        // Best effort: the URL is printed anyway.
      });
  },
};

const code = await runCli({ argv: process.argv.slice(2), io });
// Let stdout and stderr drain before exiting (a pipe may still hold the reply).
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
process.exit(code);
