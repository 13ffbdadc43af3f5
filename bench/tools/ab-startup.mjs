#!/usr/bin/env node
/**
 * `june ask` start-up, builds side by side in one run: fresh processes, interleaved, the bare streamText script,
 * the model chat module alone (imported, one turn, no CLI: what its own `june/chat` costs), and `june ask` of each
 * build on the same modules (a model chat on the bare script's model, the instant agent chat as .mjs and .tsx);
 * wall time to exit and the process's own CPU time (user + system of all its threads, reported at exit by a
 * one-line `--import`, which steadies the ratio on a loaded machine), medians:
 *   node bench/tools/ab-startup.mjs OLD_PACKAGE_DIR [runs]              # before = OLD, after = packages/june
 *   node bench/tools/ab-startup.mjs LABEL=DIR LABEL=DIR ... [runs]      # any builds, in this order
 * A package directory is a copy of `packages/june` (`package.json`, `bin/`, `dist/`) from another commit,
 * placed inside this repository's `node_modules/` (e.g. `node_modules/.old-june`) so its dependencies resolve.
 *
 * Each build runs the chat modules from a folder of its own whose `node_modules/june` is that build, so the
 * module's `june` imports are the CLI's own copy, as for a user (a module whose `june` is another copy than the
 * CLI's would load through the module hooks: `cli/plain-module-graph.ts`). The folders are made in a temporary
 * directory (not under a `node_modules/`, where a `.tsx` file is a package's, not a user's).
 */
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../lib/fixtures.mjs";
import { timeProcess } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const args = process.argv.slice(2);
const runs = /^\d+$/.test(args.at(-1) ?? "") ? Number(args.pop()) : 10;
if (args.length === 0) throw new Error("usage: ab-startup.mjs OLD_PACKAGE_DIR [runs]  |  ab-startup.mjs LABEL=DIR ... [runs]");
const builds =
  args.length === 1 && !args[0].includes("=")
    ? [
        { label: "before", dir: resolve(args[0]) },
        { label: "after", dir: here("../../packages/june") },
      ]
    : args.map((arg) => {
        const [label, dir] = arg.split("=");
        if (!label || !dir) throw new Error(`expected LABEL=DIR, got ${arg}`);
        return { label, dir: resolve(dir) };
      });

// A folder per build: the chat modules, and node_modules/june linked to the build.
const staging = tempDir("june-ab-startup-");
const chatModules = ["instant-model-chat.mjs", "instant-chat.mjs", "instant-chat.tsx", "june-model-turn.mjs", "words-model.mjs"];
for (const [i, build] of builds.entries()) {
  build.children = join(staging, `${i}-${build.label.replace(/[^\w.-]/g, "_")}`);
  mkdirSync(join(build.children, "node_modules"), { recursive: true });
  symlinkSync(build.dir, join(build.children, "node_modules", "june"), "dir");
  for (const file of chatModules) cpSync(here(`../children/${file}`), join(build.children, file));
}

const cpuAtExit = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write(`\\n@@cpu ${u.user + u.system}\\n`); });',
)}`;

const variants = [
  { key: "bare streamText script", args: [here("../children/bare-stream.mjs")] },
  // Issue 29's cold-start check (item 4): the AI SDK's own import + turn, and June's (a model chat) per build.
  { key: "node -e 0", args: ["-e", "0"], silent: true },
  { key: "AI SDK import + turn", args: [here("../children/ai-sdk-turn.mjs")] },
];
for (const build of builds) {
  variants.push({ key: `june/chat import + turn ${build.label}`, args: [join(build.children, "june-model-turn.mjs")] });
}
// The model chat module alone, one turn and no CLI: what the module's own `june/chat` costs.
for (const build of builds) {
  variants.push({ key: `model chat module alone ${build.label}`, args: [here("../children/chat-module-turn.mjs"), join(build.children, "instant-model-chat.mjs")] });
}
for (const [label, file, ...rest] of [
  ["ask instant-model-chat.mjs", "instant-model-chat.mjs", "Hello there"],
  ["ask instant-chat.mjs", "instant-chat.mjs", "--deny", "Hello there"],
  ["ask instant-chat.tsx", "instant-chat.tsx", "--deny", "Hello there"],
]) {
  for (const build of builds) {
    variants.push({ key: `${label} ${build.label}`, args: [join(build.dir, "bin", "june.js"), "ask", join(build.children, file), ...rest] });
  }
}

const cwd = tempDir();
const samples = Object.fromEntries(variants.map((v) => [v.key, { wall: [], cpu: [] }]));
for (let r = 0; r < runs + 1; r++) {
  for (const variant of variants) {
    const result = await timeProcess(process.execPath, ["--import", cpuAtExit, ...variant.args], { cwd });
    const cpu = /@@cpu (\d+)/.exec(result.stderr);
    if (!cpu || (!variant.silent && result.stdout.trim() === "")) throw new Error(`${variant.key}: no reply or no CPU figure: ${result.stderr.slice(-400)}`);
    if (r === 0) continue; // warm-up
    samples[variant.key].wall.push(result.exitMs);
    samples[variant.key].cpu.push(Number(cpu[1]) / 1000);
  }
}
const bare = samples[variants[0].key];
const [bareWall, bareCpu] = [median(bare.wall), median(bare.cpu)];
const width = Math.max(36, ...variants.map((v) => v.key.length));
console.log(`${runs} runs each, interleaved (+1 warm-up), medians`);
console.log(`${"command".padEnd(width)} ${"wall".padStart(9)} ${"÷ bare".padStart(7)} ${"CPU".padStart(9)} ${"÷ bare".padStart(7)}`);
for (const { key } of variants) {
  const wall = median(samples[key].wall);
  const cpu = median(samples[key].cpu);
  console.log(`${key.padEnd(width)} ${`${round(wall)} ms`.padStart(9)} ${`${round(wall / bareWall)}×`.padStart(7)} ${`${round(cpu)} ms`.padStart(9)} ${`${round(cpu / bareCpu)}×`.padStart(7)}`);
}
// Item 4: (June's import + turn − node -e 0) ÷ (the AI SDK's − node -e 0), goal ≤ 1.15.
const over = (key, field) => median(samples[key][field]) - median(samples["node -e 0"][field]);
for (const build of builds) {
  const key = `june/chat import + turn ${build.label}`;
  console.log(
    `item 4, ${build.label}: wall ${round(over(key, "wall") / over("AI SDK import + turn", "wall"))}×, CPU ${round(over(key, "cpu") / over("AI SDK import + turn", "cpu"))}× the AI SDK's own (over node -e 0)`,
  );
}
