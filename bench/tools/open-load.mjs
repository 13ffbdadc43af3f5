#!/usr/bin/env node
/**
 * fileStore open + load of one long session against a hand-rolled JSONL read, in fresh processes
 * (`children/open-session.mjs`: `openSession` then `turns()`, and reading + parsing every line of the same
 * journal, alternately first; and each alone in a process of its own), for one or two builds, runs interleaved; medians:
 *   node bench/tools/open-load.mjs [turns=1000] [runs=9] [OLD_PACKAGE_DIR]
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileStore } from "june/chat";
import { seedSession, tempDir } from "../lib/fixtures.mjs";
import { jsonChild } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const [turnsArg = "1000", runsArg = "9", oldDir] = process.argv.slice(2);
const turns = Number(turnsArg);
const child = fileURLToPath(new URL("../children/open-session.mjs", import.meta.url));
const dir = tempDir();
const store = fileStore(dir, { fsync: false });
await store.createSession({ id: "long" });
await seedSession(store, "long", { turns });
const builds = { after: undefined, ...(oldDir ? { before: oldDir } : {}) };
const runs = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
// Each alone in a process of its own too: in one process the second of the two finds code and pages warm.
const alone = Object.fromEntries(Object.keys(builds).map((b) => [b, { june: [], floor: [] }]));
for (let i = 0; i < Number(runsArg); i++) {
  for (const [name, packageDir] of Object.entries(builds)) {
    const rest = packageDir ? [packageDir] : [];
    runs[name].push(await jsonChild([child, dir, "long", String(turns), String(i % 2), ...rest]));
    alone[name].june.push((await jsonChild([child, dir, "long", String(turns), "june", ...rest])).turnsMs);
    alone[name].floor.push((await jsonChild([child, dir, "long", String(turns), "floor", ...rest])).floorMs);
  }
}
process.stdout.write(`${turns}-turn journal, ${round(statSync(join(dir, "long.jsonl")).size / 1e6)} MB; medians of ${runsArg} fresh processes\n`);
for (const [name, list] of Object.entries(runs)) {
  const m = (key) => median(list.map((r) => r[key]));
  process.stdout.write(
    `${name.padEnd(7)} open ${round(m("openMs"))} ms, open + turns() ${round(m("turnsMs"))} ms (CPU ${round(m("turnsCpuMs"))} ms); JSONL read + parse ${round(m("floorMs"))} ms (CPU ${round(m("floorCpuMs"))} ms): open + load ${round(m("turnsMs") / m("floorMs"))}×, per run ${list.map((r) => round(r.turnsMs / r.floorMs, 2)).join(" ")}\n`,
  );
  const a = alone[name];
  process.stdout.write(`${"".padEnd(7)} each alone in a fresh process: open + turns() ${round(median(a.june))} ms, JSONL read + parse ${round(median(a.floor))} ms: ${round(median(a.june) / median(a.floor))}×\n`);
}
