#!/usr/bin/env node
/**
 * Before/after of opening long sessions and of idle heap, for two builds of June, runs interleaved:
 *   node bench/tools/ab-open.mjs /path/to/old/packages/june [rounds=9] [heapSessions=1000]   (rounds 0: the heap only)
 * Opening: a fileStore session of 1,000 and of 10,000 turns, each open in a fresh process (`openSession`, then
 * `turns()`), wall and CPU time (medians), against reading and parsing the journal in the same process.
 * Heap: idle open fileStore sessions of 10 turns (what the sessions section measures), and memoryStore sessions
 * of 10 turns, the store's journal included (`children/memory-session-heap.mjs`), per session.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileStore } from "june/chat";
import { seedSession, tempDir } from "../lib/fixtures.mjs";
import { jsonChild } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "9", heapArg = "1000"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-open.mjs OLD_PACKAGE_DIR [rounds] [heapSessions]");
const builds = { before: oldDir, after: fileURLToPath(new URL("../../packages/june", import.meta.url)) };
const child = (name) => fileURLToPath(new URL(`../children/${name}`, import.meta.url));
const root = tempDir();

const rounds = Number(roundsArg);
const sizes = rounds > 0 ? [1_000, 10_000] : [];
const runs = {};
for (const turns of sizes) {
  const dir = join(root, `open-${turns}`);
  const store = fileStore(dir, { fsync: false });
  await store.createSession({ id: "long" });
  await seedSession(store, "long", { turns });
  process.stderr.write(`seeded ${turns} turns (${round(statSync(join(dir, "long.jsonl")).size / 1e6)} MB)\n`);
}
for (let r = 0; r < rounds; r++) {
  for (const turns of sizes) {
    const order = r % 2 === 0 ? ["before", "after"] : ["after", "before"];
    for (const build of order) {
      const result = await jsonChild([child("open-session.mjs"), join(root, `open-${turns}`), "long", String(turns), String(r % 2), builds[build]]);
      (runs[`${turns} ${build}`] ??= []).push(result);
    }
  }
}
const m = (list, key) => round(median(list.map((x) => x[key])));
if (rounds > 0) console.log(`open a fileStore session in a fresh process (median of ${roundsArg}); floor: read + JSON.parse every line`);
if (rounds > 0) console.log("turns   build     open wall  open CPU  +turns() wall  +turns() CPU  floor wall  floor CPU");
for (const turns of sizes) {
  for (const build of ["before", "after"]) {
    const list = runs[`${turns} ${build}`];
    console.log(
      [String(turns).padEnd(7), build.padEnd(7), ...["openMs", "openCpuMs", "turnsMs", "turnsCpuMs", "floorMs", "floorCpuMs"].map((k) => `${m(list, k)} ms`.padStart(12))].join(" "),
    );
  }
}

const heapSessions = Number(heapArg);
const heapDir = join(root, "heap");
{
  const store = fileStore(heapDir, { fsync: false });
  for (let i = 0; i < heapSessions; i++) {
    await store.createSession({ id: `heap-${i}` });
    await seedSession(store, `heap-${i}`, { turns: 10 });
  }
}
const heap = { file: { before: [], after: [] }, memory: { before: [], after: [] } };
for (let r = 0; r < 3; r++) {
  for (const build of r % 2 === 0 ? ["before", "after"] : ["after", "before"]) {
    heap.file[build].push(await jsonChild(["--expose-gc", child("session-heap.mjs"), heapDir, String(heapSessions), builds[build]]));
    heap.memory[build].push(await jsonChild(["--expose-gc", child("memory-session-heap.mjs"), String(heapSessions), builds[build]]));
  }
}
console.log(`\nheap per idle session of 10 turns (${heapSessions} sessions, median of 3 processes; journal ${statSync(join(heapDir, "heap-0.jsonl")).size} B)`);
console.log("store        build     per session   store part   open part   parsed JSON floor");
for (const kind of ["file", "memory"]) {
  for (const build of ["before", "after"]) {
    const list = heap[kind][build];
    const b = (key) => (list[0][key] === undefined ? "" : `${Math.round(median(list.map((x) => x[key])))} B`);
    console.log([kind.padEnd(12), build.padEnd(7), b("bytesPerSession").padStart(12), b("storeBytesPerSession").padStart(12), b("openBytesPerSession").padStart(11), b("floorBytesPerSession").padStart(18)].join(" "));
  }
}
process.exit(0);
