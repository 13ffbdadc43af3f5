#!/usr/bin/env node
/**
 * Before/after of a store's own work per turn, in one process: acquire the lease, append the turn-start, append
 * the turn-end (`sync: true`, `endsLease` as the chat passes it), release, for two builds of June, rounds interleaved (medians of CPU and wall):
 *   node bench/tools/ab-store.mjs /path/to/old/packages/june [rounds] [variants: file,file-nosync,memory]
 * JUNE_BENCH_TURNS sets the turns a round (default 50, a new session each round). Given this package's own
 * directory (`packages/june`) as the old one, both columns run this build: an A/A row.
 */
import { join } from "node:path";
import { inputOf, replyDeltas, tempDir } from "../lib/fixtures.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";
import { juneModule } from "../lib/june-module.mjs";

const [oldDir, roundsArg = "15", variantsArg = "file,file-nosync"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-store.mjs OLD_PACKAGE_DIR [rounds] [variants]");
const keys = variantsArg.split(",");
// `file-kept` (fileStore's `keepLeaseMs`) went with the option; any other name would run as `file-nosync`.
const unknown = keys.filter((key) => !["file", "file-nosync", "memory"].includes(key));
if (unknown.length > 0) throw new Error(`ab-store.mjs: unknown variant ${unknown.join(", ")} (file, file-nosync, memory)`);
const turns = Number(process.env.JUNE_BENCH_TURNS ?? 50);
const reply = replyDeltas().join("");
const load = (dir) => juneModule("chat", dir);
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
const dir = tempDir();

function storeOf(chat, key, path) {
  if (key === "memory") return chat.memoryStore();
  return chat.fileStore(path, { fsync: key === "file" });
}

const variants = [];
for (const key of keys) {
  for (const build of ["before", "after"]) {
    const store = storeOf(builds[build], key, join(dir, `${build}-${key}`));
    let n = 0;
    variants.push({
      name: `${key} ${build}`,
      async round() {
        const id = `s${n++}`;
        await store.createSession({ id });
        let seq = 1;
        const m = await measure(async () => {
          for (let i = 0; i < turns; i++) {
            const lease = await store.acquireTurn(id);
            const turnId = `t${i}`;
            await store.append(id, [{ type: "turn-start", turnId, input: inputOf(i), context: { builder: "fullContext", turnIds: [] } }], { expectedSeq: seq });
            const end = { type: "turn-end", turnId, status: "completed", text: reply, metadata: { responder: { kind: "model" } } };
            // As the chat appends a turn's end: a store may release the lease with it (`endsLease`).
            await store.append(id, [end], { expectedSeq: seq + 1, sync: true, endsLease: lease });
            seq += 2;
            await store.releaseTurn(lease);
          }
        });
        return { ...m, items: turns };
      },
    });
  }
}
const results = await interleave(variants, { rounds: Number(roundsArg), warmupRounds: 2 });
console.log("store work per turn (acquire, 2 appends, release)     CPU        wall");
for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(40)} ${String(round(r.cpuMs * 1000)).padStart(8)} µs ${String(round(r.wallMs * 1000)).padStart(8)} µs`);
process.exit(0);
