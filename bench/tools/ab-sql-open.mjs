#!/usr/bin/env node
/**
 * Opening a long session over sqliteStore and postgresStore, two builds of June in one process, rounds
 * interleaved: `openSession` then `turns()` of a session of `turns` completed turns (seeded through the store),
 * CPU and wall time (medians). What it shows: a store marked as checking its reads (`[checksReads]`) spares the
 * session's fold its own check of every entry.
 *   node bench/tools/ab-sql-open.mjs OLD_PACKAGE_DIR [rounds=15] [turns=1000]
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { seedSession, tempDir } from "../lib/fixtures.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "15", turnsArg = "1000"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-sql-open.mjs OLD_PACKAGE_DIR [rounds] [turns]");
const URL_ = process.env.JUNE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const turns = Number(turnsArg);

async function load(dir) {
  const at = (path) => import(pathToFileURL(join(dir, "dist", path)).href);
  return { chat: await at("chat/index.js"), sqlite: await at("stores/sqlite/index.js").catch(() => at("chat/index.js")), postgres: await at("stores/postgres/index.js").catch(() => at("chat/index.js")) };
}
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
const pool = new pg.Pool({ connectionString: URL_, max: 4 });
pool.on("error", () => undefined);
const schema = `june_bench_open_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const path = join(tempDir(), "open.db");

// One journal per store kind, seeded once (with the new build), opened by both builds.
const seeder = { sqlite: builds.after.sqlite.sqliteStore(path), postgres: builds.after.postgres.postgresStore({ pool, schema }) };
for (const store of Object.values(seeder)) {
  await store.createSession({ id: "long" });
  await seedSession(store, "long", { turns });
}
await seeder.sqlite.close();

const variants = [];
for (const kind of ["sqlite", "postgres"]) {
  for (const build of ["before", "after"]) {
    const b = builds[build];
    const store = kind === "sqlite" ? b.sqlite.sqliteStore(path) : b.postgres.postgresStore({ pool, schema });
    const chat = b.chat.createChat({ responder: { respond: () => ({ result: Promise.resolve({ text: "" }) }) }, store });
    variants.push({
      name: `${kind} ${build}`,
      async round() {
        const t = await measure(async () => {
          const session = await chat.openSession("long");
          const records = await session.turns();
          if (records.length !== turns) throw new Error(`read ${records.length} turns`);
        });
        return { ...t, items: 1 };
      },
      close: () => store.close(),
    });
  }
}
const result = await interleave(variants, { rounds: Number(roundsArg), warmupRounds: 2 });
for (const v of variants) await v.close();
await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await pool.end();

console.log(`open + turns() of a ${turns}-turn session, median of ${roundsArg} interleaved rounds`);
for (const kind of ["sqlite", "postgres"]) {
  const before = result[`${kind} before`];
  const after = result[`${kind} after`];
  console.log(
    `${kind.padEnd(9)} before ${round(before.cpuMs)} ms CPU / ${round(before.wallMs)} ms wall, after ${round(after.cpuMs)} / ${round(after.wallMs)}: ` +
      `CPU ${round(after.cpuMs / before.cpuMs)}×, wall ${round(after.wallMs / before.wallMs)}×`,
  );
}
