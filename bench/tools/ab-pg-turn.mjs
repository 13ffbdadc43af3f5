#!/usr/bin/env node
/**
 * postgresStore before/after in one process: PostgreSQL round trips per model-chat turn, counted (every
 * statement sent through the pool is one), for each built-in context builder and for the paths a turn falls
 * back to (the lease held by another process; the journal moved on by another process); then CPU and wall time
 * per turn for the two builds, rounds interleaved, on the local server and with `latencyMs` added to every
 * statement (a server across a network):
 *   node bench/tools/ab-pg-turn.mjs OLD_PACKAGE_DIR [rounds] [latencyMs]
 * OLD_PACKAGE_DIR is a copy of packages/june (package.json + dist) inside this worktree's node_modules.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { benchModel, chatTurn, inputOf } from "../lib/fixtures.mjs";
import { interleave, measure, median, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "15", latencyArg = "1"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-pg-turn.mjs OLD_PACKAGE_DIR [rounds] [latencyMs]");
const URL_ = process.env.JUNE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rounds = Number(roundsArg);
const latencyMs = Number(latencyArg);

async function load(dir) {
  const at = (path) => import(pathToFileURL(join(dir, "dist", path)).href);
  return { chat: await at("chat/index.js"), postgres: await at("stores/postgres/index.js").catch(() => at("chat/index.js")) };
}
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };

const base = new pg.Pool({ connectionString: URL_, max: 10 });
base.on("error", () => undefined);
const schemas = [];

/** A pool over `base` that counts the statements sent through it and may delay each by `delay.ms`. */
function countingPool(delay = { ms: 0 }) {
  const counter = { queries: 0 };
  const slow = async (run) => {
    if (delay.ms > 0) await sleep(delay.ms);
    return run();
  };
  const pool = {
    query: (...args) => {
      counter.queries++;
      return slow(() => base.query(...args));
    },
    connect: async () => {
      const client = await base.connect();
      return {
        query: (...args) => {
          counter.queries++;
          return slow(() => client.query(...args));
        },
        release: (error) => client.release(error),
      };
    },
    end: async () => {},
  };
  return { pool, counter };
}

function storeOf(build, pool) {
  const schema = `june_bench_ab_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  schemas.push(schema);
  return builds[build].postgres.postgresStore({ pool, schema });
}

const contexts = {
  fullContext: (c) => c.fullContext(),
  "recentTurns(10)": (c) => c.recentTurns(10),
  "tokenBudget(8000)": (c) => c.tokenBudget({ maxTokens: 8000 }),
  summarizedContext: (c) => c.summarizedContext({ model: benchModel(), keepRecent: 6, triggerTokens: 1e9 }),
};

// 1. Statements per turn, counted: a session, 6 turns one after another (the first not counted).
const counted = [];
for (const [name, make] of Object.entries(contexts)) {
  const row = { context: name };
  for (const build of ["before", "after"]) {
    const { pool, counter } = countingPool();
    const store = storeOf(build, pool);
    const model = benchModel();
    const session = await builds[build].chat.createChat({ model, store, context: make(builds[build].chat) }).createSession();
    await chatTurn(session, inputOf(0), model);
    const perTurn = [];
    for (let i = 1; i <= 5; i++) {
      const before = counter.queries;
      await chatTurn(session, inputOf(i), model);
      perTurn.push(counter.queries - before);
    }
    row[build] = median(perTurn);
    await store.close();
  }
  counted.push(row);
}

// 2. The paths a turn falls back to, counted.
async function fallbacks(build) {
  const { chat, postgres } = builds[build];
  const { pool, counter } = countingPool();
  const store = storeOf(build, pool);
  const other = postgres.postgresStore({ pool: base, schema: schemas[schemas.length - 1] });
  const model = benchModel();
  const session = await chat.createChat({ model, store }).createSession();
  await chatTurn(session, inputOf(0), model);
  const held = await other.acquireTurn(session.id);
  let before = counter.queries;
  await session.send("busy?").result.catch(() => undefined);
  const busy = counter.queries - before;
  await other.releaseTurn(held);
  const elsewhere = await chat.createChat({ model: benchModel(), store: other }).openSession(session.id);
  await chatTurn(elsewhere, inputOf(1));
  before = counter.queries;
  await chatTurn(session, inputOf(2), model);
  const moved = counter.queries - before;
  await store.close();
  await other.close();
  return { busy, moved };
}
const fall = { before: await fallbacks("before"), after: await fallbacks("after") };

// 3. CPU and wall time per turn (fullContext), the two builds interleaved, on the local server and slowed.
async function timed(delayMs) {
  const variants = [];
  for (const build of ["before", "after"]) {
    const delay = { ms: delayMs };
    const { pool } = countingPool(delay);
    const store = storeOf(build, pool);
    const model = benchModel();
    const chat = builds[build].chat.createChat({ model, store });
    let n = 0;
    variants.push({
      name: build,
      async round() {
        const session = await chat.createSession();
        const t = await measure(async () => {
          for (let i = 0; i < 10; i++) await chatTurn(session, inputOf(n++), model);
        });
        return { ...t, items: 10 };
      },
      close: () => store.close(),
    });
  }
  const result = await interleave(variants, { rounds });
  for (const v of variants) await v.close();
  return result;
}
const local = await timed(0);
const slowed = latencyMs > 0 ? await timed(latencyMs) : undefined;

for (const schema of schemas) await base.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
await base.end();

console.log("PostgreSQL round trips per model-chat turn (statements on the pool, median of 5 turns)");
console.log("context                 before  after");
for (const row of counted) console.log(`${row.context.padEnd(22)} ${String(row.before).padStart(7)} ${String(row.after).padStart(6)}`);
console.log(`lease held elsewhere    ${String(fall.before.busy).padStart(7)} ${String(fall.after.busy).padStart(6)}   (the turn fails SessionBusyError)`);
console.log(`journal moved on        ${String(fall.before.moved).padStart(7)} ${String(fall.after.moved).padStart(6)}   (another process's turn came first)`);
const line = (label, r) =>
  console.log(
    `${label.padEnd(30)} before ${round(r.before.cpuMs)} ms CPU / ${round(r.before.wallMs)} ms wall, after ${round(r.after.cpuMs)} / ${round(r.after.wallMs)}: ` +
      `CPU ${round(r.after.cpuMs / r.before.cpuMs)}×, wall ${round(r.after.wallMs / r.before.wallMs)}×`,
  );
console.log(`\nper turn, fullContext, 60-delta reply, median of ${rounds} interleaved rounds of 10 turns`);
line("local server", local);
if (slowed) line(`+${latencyMs} ms a statement`, slowed);
