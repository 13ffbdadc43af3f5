/**
 * 14. Queued turns: what a turn costs when it is enqueued and run by a worker (`june/worker` on pg-boss) against
 * the same turn sent directly (`session.send`), both over `postgresStore` on the same PostgreSQL. The worker runs
 * in this process (one at a time); a queued turn's time is from `session.enqueue` to the worker's `onJob` for it:
 * pg-boss's polling (every 0.5 s) is most of it. Skipped, with a line saying why, on Node older than 22.12
 * (pg-boss 12 needs it) or when PostgreSQL (`JUNE_BENCH_DATABASE_URL`, default the local test database) cannot be reached.
 */
import { randomUUID } from "node:crypto";
import { createChat, postgresStore } from "june/chat";
import { benchModel, chatTurn, inputOf } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { round } from "../lib/stats.mjs";

const URL_ = process.env.JUNE_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

await section("queued", async ({ quick, log }) => {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) return { skipped: `pg-boss 12 needs Node 22.12 or newer; this is Node ${process.versions.node}` };
  const { default: pg } = await import("pg");
  const admin = new pg.Pool({ connectionString: URL_, max: 1, connectionTimeoutMillis: 3000 });
  try {
    await admin.query("select 1");
  } catch (error) {
    await admin.end();
    return { skipped: `PostgreSQL is not reachable at ${new URL(URL_).host} (${error.message}); set JUNE_BENCH_DATABASE_URL` };
  }
  const { createWorker, pgBossQueue } = await import("june/worker");
  const tag = randomUUID().replace(/-/g, "").slice(0, 10);
  const storeSchema = `june_bench_store_${tag}`;
  const queueSchema = `june_bench_queue_${tag}`;
  const turns = quick ? 4 : 20;
  const model = benchModel();
  const queue = pgBossQueue({ connectionString: URL_, schema: queueSchema });
  const store = postgresStore({ connectionString: URL_, schema: storeSchema });
  const chat = createChat({ model, store, queue });
  const waiting = new Map();
  const worker = createWorker({ chat, queue, concurrency: 1, onJob: (outcome) => waiting.get(outcome.turnId)?.(outcome) });
  try {
    await worker.start();
    const session = await chat.createSession();
    // Warm-up: one of each.
    await chatTurn(session, inputOf(0), model);
    const queuedTurn = async (input) => {
      const started = performance.now();
      let done;
      const finished = new Promise((resolve) => (done = resolve));
      const { turnId } = await session.enqueue(input);
      waiting.set(turnId, done);
      const outcome = await finished;
      waiting.delete(turnId);
      if (outcome.status !== "completed") throw new Error(`bench: queued turn ${turnId} ended ${outcome.status}`);
      model.forget();
      return performance.now() - started;
    };
    await queuedTurn(inputOf(1));
    const direct = [];
    const queued = [];
    log(`${turns} turns each, direct and queued, alternating (PostgreSQL at ${new URL(URL_).host})`);
    for (let i = 0; i < turns; i++) {
      const started = performance.now();
      await chatTurn(session, inputOf(i), model);
      direct.push(performance.now() - started);
      queued.push(await queuedTurn(inputOf(i)));
    }
    const directMs = median(direct);
    const queuedMs = median(queued);
    return {
      turns,
      rows: [
        { kind: "direct", wallMs: round(directMs), ratio: 1 },
        { kind: "queued", wallMs: round(queuedMs), ratio: round(queuedMs / directMs), overMs: round(queuedMs - directMs) },
      ],
    };
  } finally {
    await worker.stop();
    await queue.close();
    await store.close?.();
    await admin.query(`drop schema if exists ${storeSchema} cascade`).catch(() => undefined);
    await admin.query(`drop schema if exists ${queueSchema} cascade`).catch(() => undefined);
    await admin.end();
  }
});
