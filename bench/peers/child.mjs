/**
 * One process of the peer benchmark (bench/peers/run.mjs starts it, under Node 20 or 24 as the driver needs).
 * Prints one JSON line.
 *
 *   node child.mjs turn DRIVER TURNS ROUNDS WARMUP
 *     per-turn CPU of DRIVER and of the raw `streamText` floor in this process, rounds interleaved (the order
 *     alternates), a fresh conversation of TURNS turns per round and driver; DRIVER "raw" is the A/A row
 *   node --expose-gc child.mjs heap DRIVER SESSIONS TURNS
 *     heapUsed after gc per idle live conversation of TURNS turns, SESSIONS of them kept (the method of
 *     bench/tools/live-session-heap.mjs: warm-up conversations on a throwaway instance first)
 *   node child.mjs cold DRIVER
 *     import the driver and run one turn, its text to stdout (the parent times the process)
 */
import { DELTAS, inputOf, load } from "./drivers.mjs";

// No peer reports anything anywhere: Mastra's usage telemetry (sent only from Mastra's server and file-based agents,
// which no driver uses), OpenAI Agents' trace export (the Runner also runs with tracing off), LangSmith tracing.
process.env.MASTRA_TELEMETRY_DISABLED = "1";
process.env.OPENAI_AGENTS_DISABLE_TRACING = "1";
process.env.LANGSMITH_TRACING = "false";
process.env.LANGCHAIN_TRACING_V2 = "false";

const [mode, name, ...rest] = process.argv.slice(2);

const cpuOf = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function turnMode(turns, rounds, warmup) {
  const variants = [
    { key: "floor", driver: await load("raw"), cpu: [] },
    { key: "driver", driver: await load(name), cpu: [] },
  ];
  let conversation = 0;
  for (let r = 0; r < warmup + rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + r) % variants.length];
      const session = v.driver.open(`conversation-${++conversation}`);
      const cpu = process.cpuUsage();
      for (let i = 0; i < turns; i++) await session.turn(inputOf(i));
      const ms = cpuOf(cpu);
      if (r >= warmup) v.cpu.push(ms / turns);
    }
  }
  const [floor, driver] = variants;
  return {
    driver: name,
    node: process.version,
    turns,
    rounds,
    floorCpuMs: median(floor.cpu),
    cpuMs: median(driver.cpu),
    ratio: median(driver.cpu) / median(floor.cpu),
    // The same ratio round by round (each round's floor and driver ran back to back): its spread in this process.
    roundRatios: driver.cpu.map((ms, i) => ms / floor.cpu[i]),
  };
}

async function heapMode(sessions, turns) {
  if (typeof globalThis.gc !== "function") throw new Error("bench/peers: heap needs --expose-gc");
  const settle = () => {
    for (let i = 0; i < 4; i++) globalThis.gc();
    return process.memoryUsage().heapUsed;
  };
  // Warm the code paths first, on the same instance (bench/tools/live-session-heap.mjs: the first conversations
  // grow the heap by the engine's own compiled code and feedback, whatever comes after); what a store keeps of
  // them is in the base. (Warming a throwaway instance instead read 3–9 KB a conversation under Node 20, below
  // the plain array's figure: what the dropped instance left was freed while the measured ones ran.)
  const driver = await load(name);
  for (let w = 0; w < 30; w++) {
    const session = driver.open(`warm-${w}`);
    for (let t = 0; t < turns; t++) await session.turn(inputOf(t));
  }
  const base = settle();
  let live = [];
  let half;
  for (let s = 0; s < sessions; s++) {
    const session = driver.open(`live-${s}`);
    for (let t = 0; t < turns; t++) await session.turn(inputOf(t));
    live.push(session);
    // The figure at half the conversations too: a per-conversation cost reads the same at both.
    if (s + 1 === sessions >> 1) half = Math.round((settle() - base) / (s + 1));
  }
  const bytes = settle() - base;
  live = [];
  return { driver: name, node: process.version, sessions, turns, bytesPerSession: Math.round(bytes / sessions), bytesPerSessionAtHalf: half };
}

async function coldMode() {
  const driver = await load(name);
  const text = await driver.open("cold").turn(inputOf(0));
  process.stdout.write(`${text}\n`);
}

if (mode === "turn") {
  const [turns = "20", rounds = "9", warmup = "2"] = rest;
  process.stdout.write(`${JSON.stringify(await turnMode(Number(turns), Number(rounds), Number(warmup)))}\n`);
} else if (mode === "heap") {
  const [sessions = "200", turns = "10"] = rest;
  process.stdout.write(`${JSON.stringify(await heapMode(Number(sessions), Number(turns)))}\n`);
} else if (mode === "cold") {
  await coldMode();
} else {
  throw new Error(`bench/peers: unknown mode ${mode} (turn, heap, cold); ${DELTAS.length} deltas a reply`);
}
// Timers and handles a peer left behind must not keep the process alive.
process.exit(0);
