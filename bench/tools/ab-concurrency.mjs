#!/usr/bin/env node
/**
 * Section 8's drive for fileStore alone, two builds in one process: N sessions at once, each taking a few turns
 * back to back, for raw `streamText` and fileStore with fsync on and off, repeats interleaved (medians):
 *   node bench/tools/ab-concurrency.mjs OLD_PACKAGE_DIR [sessions=50,200] [turns=3] [repeats=2] [variants=file,file-nosync]
 * Prints turns/s, CPU per turn, p50 and p99 of a turn's latency (send to result), and how many `fdatasync`s
 * were in flight at once (at most, and on average when one started), counted by wrapping `FileHandle.datasync`.
 * Run it with UV_THREADPOOL_SIZE=16 to see what more flushes in flight give (the kernel commits concurrent
 * flushes of an ext4 file system together).
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { benchModel, chatTurn, inputOf, rawTurn, tempDir } from "../lib/fixtures.mjs";
import { median, percentile, round } from "../lib/stats.mjs";
import { juneModule } from "../lib/june-module.mjs";

const [oldDir, sizesArg = "50,200", turnsArg = "3", repeatsArg = "2", variantsArg = "file,file-nosync"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-concurrency.mjs OLD_PACKAGE_DIR [sessions] [turns] [repeats] [variants]");
const load = (dir) => juneModule("chat", dir);
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
const model = benchModel();
const root = tempDir();
const turns = Number(turnsArg);

// Count flushes in flight: every FileHandle shares one prototype.
const flushes = { inFlight: 0, max: 0, started: 0, sumAtStart: 0 };
{
  const fh = await open(join(root, "probe"), "w");
  const proto = Object.getPrototypeOf(fh);
  await fh.close();
  const datasync = proto.datasync;
  proto.datasync = async function (...args) {
    flushes.inFlight++;
    flushes.started++;
    flushes.sumAtStart += flushes.inFlight;
    flushes.max = Math.max(flushes.max, flushes.inFlight);
    try {
      return await datasync.apply(this, args);
    } finally {
      flushes.inFlight--;
    }
  };
}


async function drive(sessions, open, turn) {
  const opened = [];
  for (let s = 0; s < sessions; s++) opened.push(await open(s));
  Object.assign(flushes, { max: 0, started: 0, sumAtStart: 0 });
  const latencies = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    opened.map(async (session) => {
      for (let i = 0; i < turns; i++) {
        const t0 = performance.now();
        await turn(session, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    turnsPerSecond: (sessions * turns * 1000) / wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000 / (sessions * turns),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    flushesMax: flushes.max,
    flushesMean: flushes.started ? flushes.sumAtStart / flushes.started : 0,
  };
}

console.log(`UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}, ${turns} turns a session`);
for (const sessions of sizesArg.split(",").map(Number)) {
  const runs = new Map();
  const add = (name, r) => (runs.get(name) ?? runs.set(name, []).get(name)).push(r);
  for (let r = 0; r < Number(repeatsArg); r++) {
    add("raw", await drive(sessions, async () => [], (history, i) => rawTurn(model, history, inputOf(i))));
    for (const key of variantsArg.split(",")) {
      for (const build of r % 2 ? ["after", "before"] : ["before", "after"]) {
        const store = builds[build].fileStore(join(root, `${build}-${key}-${sessions}-${r}`), { fsync: key === "file" });
        const chat = builds[build].createChat({ model, store, context: builds[build].fullContext() });
        add(`${key} ${build}`, await drive(sessions, () => chat.createSession(), (session, i) => chatTurn(session, inputOf(i), model)));
        await store.close();
      }
    }
  }
  const floor = median(runs.get("raw").map((x) => x.turnsPerSecond));
  console.log(`\n${sessions} sessions          turns/s  vs raw  CPU/turn   p50 ms   p99 ms  flushes in flight (max / mean)`);
  for (const [name, list] of runs) {
    const pick = (k) => median(list.map((x) => x[k]));
    const fl = name.startsWith("file ") ? `${pick("flushesMax")} / ${round(pick("flushesMean"))}` : "";
    console.log(
      `${name.padEnd(22)} ${String(round(pick("turnsPerSecond"))).padStart(7)} ${`${round(pick("turnsPerSecond") / floor)}×`.padStart(7)} ${`${round(pick("cpuMs"))} ms`.padStart(9)} ${String(round(pick("p50"))).padStart(8)} ${String(round(pick("p99"))).padStart(8)}  ${fl}`,
    );
  }
}
process.exit(0);
