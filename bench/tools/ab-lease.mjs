#!/usr/bin/env node
/**
 * fileStore's lease alone, before/after in one process: 20 sessions, each round takes all 20 leases then
 * releases them (10 times), two builds interleaved; CPU per acquire + release (median and first quartile):
 *   node bench/tools/ab-lease.mjs /path/to/old/packages/june [rounds]
 */
import { join } from "node:path";
import { tempDir } from "../lib/fixtures.mjs";
import { juneModule } from "../lib/june-module.mjs";

const [oldDir, roundsArg = "80"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-lease.mjs OLD_PACKAGE_DIR [rounds]");
const load = (dir) => juneModule("chat", dir);
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
const dir = tempDir();
const stores = {};
for (const build of Object.keys(builds)) {
  stores[build] = builds[build].fileStore(join(dir, build), { fsync: false });
  for (let i = 0; i < 20; i++) await stores[build].createSession({ id: `s${i}` });
}
const samples = { before: [], after: [] };
const rounds = Number(roundsArg);
for (let r = 0; r < rounds; r++) {
  for (const build of r % 2 ? ["before", "after"] : ["after", "before"]) {
    const store = stores[build];
    const cpu = process.cpuUsage();
    for (let k = 0; k < 10; k++) {
      const leases = [];
      for (let i = 0; i < 20; i++) leases.push(await store.acquireTurn(`s${i}`));
      for (const lease of leases) await store.releaseTurn(lease);
    }
    const used = process.cpuUsage(cpu);
    if (r >= 4) samples[build].push((used.user + used.system) / 200);
  }
}
for (const [build, values] of Object.entries(samples)) {
  const sorted = values.sort((a, b) => a - b);
  console.log(`${build.padEnd(7)} ${sorted[sorted.length >> 1].toFixed(1)} µs CPU per acquire + release (first quartile ${sorted[sorted.length >> 2].toFixed(1)})`);
}
