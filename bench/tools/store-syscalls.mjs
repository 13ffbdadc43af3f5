#!/usr/bin/env node
/**
 * System calls per turn of a store's own work, counted by `strace -f -c` (Linux): `store-turns-child.mjs` run with
 * N turns and with none, the difference divided by N (a session is created per 50 turns: its calls are included),
 * for the build before and this one:
 *   node bench/tools/store-syscalls.mjs OLD_PACKAGE_DIR [turns=2000] [file-nosync|file|memory]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [oldDir, turnsArg = "2000", kind = "file-nosync"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: store-syscalls.mjs OLD_PACKAGE_DIR [turns] [kind]");
const turns = Number(turnsArg);
const child = new URL("./store-turns-child.mjs", import.meta.url).pathname;
const builds = { before: join(oldDir, "dist/chat/index.js"), after: new URL("../../packages/june/dist/chat/index.js", import.meta.url).pathname };
const tmp = mkdtempSync(join(tmpdir(), "june-strace-"));

function counts(chat, n) {
  const out = join(tmp, `${n}.txt`);
  execFileSync("strace", ["-f", "-c", "-o", out, process.execPath, child, pathToFileURL(chat).href, kind, String(n)], { stdio: "ignore" });
  const calls = {};
  for (const line of readFileSync(out, "utf8").split("\n")) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
    if (m && m[2] !== "total") calls[m[2]] = Number(m[1]);
  }
  return calls;
}

const rows = {};
for (const [name, chat] of Object.entries(builds)) {
  const none = counts(chat, 0);
  const some = counts(chat, turns);
  for (const [call, n] of Object.entries(some)) {
    const per = (n - (none[call] ?? 0)) / turns;
    if (per >= 0.05) (rows[call] ??= {})[name] = per;
  }
}
rmSync(tmp, { recursive: true, force: true });
const total = (name) => Object.values(rows).reduce((sum, r) => sum + (r[name] ?? 0), 0);
console.log(`${kind}: system calls per turn (${turns} turns)   before   after`);
for (const [call, r] of Object.entries(rows).sort((a, b) => (b[1].before ?? 0) - (a[1].before ?? 0))) {
  console.log(`${call.padEnd(40)} ${(r.before ?? 0).toFixed(2).padStart(7)} ${(r.after ?? 0).toFixed(2).padStart(7)}`);
}
console.log(`${"all".padEnd(40)} ${total("before").toFixed(2).padStart(7)} ${total("after").toFixed(2).padStart(7)}`);
