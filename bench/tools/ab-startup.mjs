#!/usr/bin/env node
/**
 * `june ask` start-up, before/after in one run: fresh processes, interleaved, the bare streamText script and
 * `june ask` of two builds on the same modules (a model chat on the bare script's model, the instant agent chat
 * as .mjs and .tsx), wall time to exit and the process's own CPU time (user + system of all its threads,
 * reported at exit by a one-line `--import`, which steadies the ratio on a loaded machine), medians:
 *   node bench/tools/ab-startup.mjs /path/to/old/packages/june [runs]
 * The old package is a copy of `packages/june` (`package.json`, `bin/`, `dist/`) from another commit.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../lib/fixtures.mjs";
import { timeProcess } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const [oldDir, runsArg = "10"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-startup.mjs OLD_PACKAGE_DIR [runs]");
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const child = (name) => here(`../children/${name}`);
const bins = { before: join(resolve(oldDir), "bin", "june.js"), after: here("../../packages/june/bin/june.js") };
const cpuAtExit = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write(`\\n@@cpu ${u.user + u.system}\\n`); });',
)}`;

const variants = [{ key: "bare streamText script", args: [child("bare-stream.mjs")] }];
for (const [label, args] of [
  ["ask instant-model-chat.mjs", ["ask", child("instant-model-chat.mjs"), "Hello there"]],
  ["ask instant-chat.mjs", ["ask", child("instant-chat.mjs"), "--deny", "Hello there"]],
  ["ask instant-chat.tsx", ["ask", child("instant-chat.tsx"), "--deny", "Hello there"]],
]) {
  for (const build of ["before", "after"]) variants.push({ key: `${label} ${build}`, args: [bins[build], ...args] });
}

const cwd = tempDir();
const samples = Object.fromEntries(variants.map((v) => [v.key, { wall: [], cpu: [] }]));
const runs = Number(runsArg);
for (let r = 0; r < runs + 1; r++) {
  for (const variant of variants) {
    const result = await timeProcess(process.execPath, ["--import", cpuAtExit, ...variant.args], { cwd });
    const cpu = /@@cpu (\d+)/.exec(result.stderr);
    if (!cpu || result.stdout.trim() === "") throw new Error(`${variant.key}: no reply or no CPU figure: ${result.stderr.slice(-400)}`);
    if (r === 0) continue; // warm-up
    samples[variant.key].wall.push(result.exitMs);
    samples[variant.key].cpu.push(Number(cpu[1]) / 1000);
  }
}
const bare = samples[variants[0].key];
const [bareWall, bareCpu] = [median(bare.wall), median(bare.cpu)];
console.log(`${runs} runs each, interleaved (+1 warm-up), medians`);
console.log(`${"command".padEnd(36)} ${"wall".padStart(9)} ${"÷ bare".padStart(7)} ${"CPU".padStart(9)} ${"÷ bare".padStart(7)}`);
for (const { key } of variants) {
  const wall = median(samples[key].wall);
  const cpu = median(samples[key].cpu);
  console.log(`${key.padEnd(36)} ${`${round(wall)} ms`.padStart(9)} ${`${round(wall / bareWall)}×`.padStart(7)} ${`${round(cpu)} ms`.padStart(9)} ${`${round(cpu / bareCpu)}×`.padStart(7)}`);
}
