/**
 * 6. Concurrency: 50 and 200 sessions at once in one process, each taking a few turns back to back, for every
 * store (memoryStore, fileStore with fsync on and off, sqliteStore, postgresStore when the local server is up)
 * and for raw `streamText` driven the same way (one message array per "session"). Per variant: turns per second
 * (and its ratio to raw), CPU per turn (and its ratio to raw: steadier than wall time on a loaded machine), the median and 99th percentile of a turn's latency (send to result) with its ratio
 * to the mean (fair: near 1; a store that never yields lets one session's turns run back to back while the others
 * wait, and p99 grows towards the whole run). Then PostgreSQL round trips per turn, counted on the pool.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createChat, fileStore, fullContext, memoryStore } from "june/chat";
import { benchModel, chatTurn, inputOf, rawTurn, tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { median, percentile, round } from "../lib/stats.mjs";

const POSTGRES_URL = process.env.JUNE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A pg pool that counts the statements sent through it (each one round trip). */
function countingPool(pg) {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 10 });
  pool.on("error", () => undefined);
  const counter = { queries: 0 };
  const wrapped = {
    query: (...args) => {
      counter.queries++;
      return pool.query(...args);
    },
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (...args) => {
          counter.queries++;
          return client.query(...args);
        },
        release: (error) => client.release(error),
      };
    },
    end: () => pool.end(),
  };
  return { pool: wrapped, counter, end: () => pool.end() };
}

async function postgresAvailable() {
  try {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.query("SELECT 1");
    await client.end();
    return pg;
  } catch {
    return undefined;
  }
}

/** Runs `sessions` loops at once, each `turns` turns of `turn(session, i)`; returns throughput and latencies. */
async function drive({ sessions, turns, open, turn }) {
  const opened = [];
  for (let s = 0; s < sessions; s++) opened.push(await open(s));
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
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
  return { wallMs, cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / (sessions * turns), turnsPerSecond: (sessions * turns * 1000) / wallMs, meanMs: mean, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), maxMs: latencies.at(-1) };
}

await section("concurrency", async ({ quick, log }) => {
  const sizes = quick ? [50] : [50, 200];
  const turns = quick ? 2 : 3;
  const repeats = quick ? 1 : 2;
  const root = tempDir();
  const model = benchModel();
  const pg = await postgresAvailable();
  const { sqliteStore, postgresStore } = await import("june/chat");
  const closers = [];

  const storeVariants = [
    { key: "memory", label: "memoryStore", make: () => memoryStore() },
    { key: "file", label: "fileStore, fsync on", make: (dir) => fileStore(dir, { fsync: true }) },
    { key: "file-nosync", label: "fileStore, fsync off", make: (dir) => fileStore(dir, { fsync: false }) },
    { key: "sqlite", label: "sqliteStore", make: (dir) => { mkdirSync(dir, { recursive: true }); return sqliteStore({ path: join(dir, "chat.db") }); } },
  ];
  if (pg) {
    storeVariants.push({
      key: "postgres",
      label: "postgresStore",
      make: () => {
        const counted = countingPool(pg);
        const schema = `june_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
        const store = postgresStore({ pool: counted.pool, schema });
        closers.push(async () => {
          await counted.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
          await store.close();
          await counted.end();
        });
        return store;
      },
    });
  } else log("PostgreSQL is not reachable: no postgresStore rows");

  const rows = [];
  for (const sessions of sizes) {
    const samples = new Map();
    const add = (key, label, result) => {
      if (!samples.has(key)) samples.set(key, { key, label, runs: [] });
      samples.get(key).runs.push(result);
    };
    for (let r = 0; r < repeats; r++) {
      log(`${sessions} sessions × ${turns} turns, repeat ${r + 1}/${repeats}`);
      add(
        "raw",
        "raw streamText",
        await drive({
          sessions,
          turns,
          open: async () => [],
          turn: (history, i) => rawTurn(model, history, inputOf(i)),
        }),
      );
      for (const variant of storeVariants) {
        const store = variant.make(join(root, `${variant.key}-${sessions}-${r}`));
        const chat = createChat({ model, store, context: fullContext() });
        add(
          variant.key,
          variant.label,
          await drive({
            sessions,
            turns,
            open: () => chat.createSession(),
            turn: (session, i) => chatTurn(session, inputOf(i), model),
          }),
        );
        if (variant.key !== "postgres") await store.close?.();
      }
    }
    const floor = median(samples.get("raw").runs.map((x) => x.turnsPerSecond));
    const cpuFloor = median(samples.get("raw").runs.map((x) => x.cpuMsPerTurn));
    for (const { key, label, runs } of samples.values()) {
      const pick = (name) => median(runs.map((x) => x[name]));
      const meanMs = pick("meanMs");
      rows.push({
        sessions,
        variant: key,
        label,
        turnsPerSecond: round(pick("turnsPerSecond")),
        ratio: round(pick("turnsPerSecond") / floor),
        cpuMsPerTurn: round(pick("cpuMsPerTurn")),
        cpuRatio: round(pick("cpuMsPerTurn") / cpuFloor),
        meanMs: round(meanMs),
        p50Ms: round(pick("p50Ms")),
        p99Ms: round(pick("p99Ms")),
        p99OverMean: round(pick("p99Ms") / meanMs),
      });
    }
  }

  // PostgreSQL round trips per turn: one session, turns one after another, statements counted on the pool.
  let postgres;
  if (pg) {
    const counted = countingPool(pg);
    const schema = `june_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const store = postgresStore({ pool: counted.pool, schema });
    const chat = createChat({ model, store, context: fullContext() });
    const session = await chat.createSession();
    await chatTurn(session, inputOf(0), model);
    const counts = [];
    for (let i = 1; i <= 5; i++) {
      const before = counted.counter.queries;
      await chatTurn(session, inputOf(i), model);
      counts.push(counted.counter.queries - before);
    }
    postgres = { roundTripsPerTurn: median(counts), perTurn: counts };
    await counted.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await store.close();
    await counted.end();
  }
  for (const close of closers) await close();
  return { sizes, turns, repeats, deltas: 60, rows, postgres };
});
