#!/usr/bin/env node
/**
 * What importing one June entry point costs, two builds side by side with the AI SDK alone for scale: fresh
 * processes, interleaved, each importing one module and printing its wall time and the process's CPU time
 * (user + system) spent on the import; medians:
 *   node bench/tools/ab-import.mjs OLD_PACKAGE_DIR [runs=15] [subpath=chat]
 * OLD_PACKAGE_DIR: a copy of `packages/june` (`package.json`, `dist/`) placed inside this repository's
 * `node_modules/` (e.g. `node_modules/.old-june`) so its dependencies resolve.
 */
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, round } from "../lib/stats.mjs";

const [oldDir, runsArg = "15", subpath = "chat"] = process.argv.slice(2);
if (!oldDir) {
  process.stderr.write("usage: ab-import.mjs OLD_PACKAGE_DIR [runs] [subpath]\n");
  process.exit(2);
}
const packageDir = fileURLToPath(new URL("../../packages/june", import.meta.url));
const targets = {
  ai: "ai",
  before: pathToFileURL(join(resolve(oldDir), "dist", subpath, "index.js")).href,
  after: pathToFileURL(join(packageDir, "dist", subpath, "index.js")).href,
};
const script = (target) =>
  `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(target)}); const u = process.cpuUsage(c);` +
  `process.stdout.write(JSON.stringify({ ms: performance.now() - t, cpuMs: (u.user + u.system) / 1000 }));`;
const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
for (let i = 0; i < Number(runsArg); i++) {
  for (const [name, target] of Object.entries(targets)) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script(target)], { cwd: packageDir });
    runs[name].push(JSON.parse(out.toString()));
  }
}
process.stdout.write(`import of june/${subpath} (and of ai alone), medians of ${runsArg} fresh processes each, interleaved\n`);
const aiCpu = median(runs.ai.map((r) => r.cpuMs));
for (const [name, list] of Object.entries(runs)) {
  const cpu = median(list.map((r) => r.cpuMs));
  process.stdout.write(`${name.padEnd(7)} wall ${round(median(list.map((r) => r.ms)))} ms, CPU ${round(cpu)} ms (${round(cpu / aiCpu)}× ai)\n`);
}
