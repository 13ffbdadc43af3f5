/**
 * 3. Sessions: opening a 1,000- and a 10,000-turn fileStore session in a fresh process (against reading and
 * parsing its journal), listing 10,000 sessions (fileStore in a fresh process, against a readdir and a stat per journal;
 * memoryStore in process, against sorting the same listings), and the heap an idle open session holds
 * (1,000 sessions of 10 turns, against the same journals held as parsed JSON: fileStore sessions opened, and
 * memoryStore sessions with the store's journal counted).
 */
import { fileURLToPath } from "node:url";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileStore, memoryStore } from "june/chat";
import { seedSession, tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { jsonChild } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const child = (name) => fileURLToPath(new URL(`../children/${name}`, import.meta.url));

/** Runs `task(i)` for i in [0, n) with at most `limit` in flight. */
async function pool(n, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** Creates `count` sessions of `turns` turns each in `store`, ids `<prefix>-<i>`. */
async function seedMany(store, prefix, count, turns) {
  await pool(count, 16, async (i) => {
    const id = `${prefix}-${i}`;
    await store.createSession({ id });
    await seedSession(store, id, { turns });
  });
}

await section("sessions", async ({ quick, log }) => {
  const spawns = quick ? 2 : 7;
  const listCount = quick ? 1_000 : 10_000;
  const heapCount = quick ? 200 : 1_000;
  const root = tempDir();
  const out = {};

  // Open a long session in a fresh process: 1,000 and 10,000 turns (the goals of issue 10).
  out.opens = [];
  for (const turns of quick ? [200, 2_000] : [1_000, 10_000]) {
    const dir = join(root, `open-${turns}`);
    const store = fileStore(dir, { fsync: false });
    await store.createSession({ id: "long" });
    await seedSession(store, "long", { turns });
    const bytes = statSync(join(dir, "long.jsonl")).size;
    log(`opening a ${turns}-turn session (${round(bytes / 1e6)} MB) in ${spawns} fresh processes`);
    const runs = [];
    for (let i = 0; i < spawns; i++) {
      runs.push(await jsonChild([child("open-session.mjs"), dir, "long", String(turns), String(i % 2)]));
    }
    const m = (key) => median(runs.map((r) => r[key]));
    out.opens.push({
      turns,
      journalBytes: bytes,
      importMs: round(m("importMs")),
      openMs: round(m("openMs")),
      openCpuMs: round(m("openCpuMs")),
      openAndTurnsMs: round(m("turnsMs")),
      floorMs: round(m("floorMs")),
      ratio: round(m("openMs") / m("floorMs")),
    });
  }
  out.open = out.opens.at(-1);

  // List many sessions.
  {
    const dir = join(root, "list");
    log(`seeding ${listCount} fileStore sessions of 2 turns`);
    await seedMany(fileStore(dir, { fsync: false }), "s", listCount, 2);
    const cold = [];
    const warm = [];
    for (let i = 0; i < spawns; i++) {
      // A fresh process with no index file: every journal is read.
      rmSync(join(dir, ".sessions-index.json"), { force: true });
      cold.push(await jsonChild([child("list-sessions.mjs"), dir, String(listCount)]));
      // A fresh process with the index the last one saved: one stat per journal.
      warm.push(await jsonChild([child("list-sessions.mjs"), dir, String(listCount)]));
    }
    const floorMs = median([...cold, ...warm].map((r) => r.floorMs));
    const m = (runs, key) => median(runs.map((r) => r[key]));
    out.listFile = {
      sessions: listCount,
      floorMs: round(floorMs),
      noIndexMs: round(m(cold, "firstMs")),
      freshProcessMs: round(m(warm, "firstMs")),
      sameProcessMs: round(m(warm, "secondMs")),
      pageOf20Ms: round(m(warm, "pageMs")),
      noIndexRatio: round(m(cold, "firstMs") / floorMs),
      freshProcessRatio: round(m(warm, "firstMs") / floorMs),
    };

    log(`seeding ${listCount} memoryStore sessions of 2 turns`);
    const memory = memoryStore();
    await seedMany(memory, "m", listCount, 2);
    const listMs = [];
    const floorMem = [];
    for (let i = 0; i < spawns; i++) {
      let start = performance.now();
      const all = await memory.listSessions();
      listMs.push(performance.now() - start);
      if (all.length !== listCount) throw new Error(`memoryStore listed ${all.length} of ${listCount}`);
      // The floor: copy and sort the same descriptions by updatedAt.
      start = performance.now();
      all.map((info) => ({ ...info })).sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
      floorMem.push(performance.now() - start);
    }
    out.listMemory = { sessions: listCount, listMs: round(median(listMs)), floorMs: round(median(floorMem)), ratio: round(median(listMs) / median(floorMem)) };
  }

  // Heap per idle open session.
  {
    const dir = join(root, "heap");
    log(`seeding ${heapCount} sessions of 10 turns for the heap reading`);
    await seedMany(fileStore(dir, { fsync: false }), "heap", heapCount, 10);
    const runs = [];
    for (let i = 0; i < Math.min(spawns, 3); i++) runs.push(await jsonChild(["--expose-gc", child("session-heap.mjs"), dir, String(heapCount)]));
    const bytes = median(runs.map((r) => r.bytesPerSession));
    const floor = median(runs.map((r) => r.floorBytesPerSession));
    out.heap = {
      sessions: heapCount,
      turnsEach: 10,
      journalBytesEach: statSync(join(dir, "heap-0.jsonl")).size,
      bytesPerSession: Math.round(bytes),
      floorBytesPerSession: Math.round(floor),
      ratio: round(bytes / floor),
    };
    // memoryStore: the store's journal and the open session together.
    const memory = [];
    for (let i = 0; i < Math.min(spawns, 3); i++) memory.push(await jsonChild(["--expose-gc", child("memory-session-heap.mjs"), String(heapCount)]));
    const mm = (key) => Math.round(median(memory.map((r) => r[key])));
    out.heapMemory = {
      sessions: heapCount,
      turnsEach: 10,
      bytesPerSession: mm("bytesPerSession"),
      storeBytesPerSession: mm("storeBytesPerSession"),
      openBytesPerSession: mm("openBytesPerSession"),
      floorBytesPerSession: mm("floorBytesPerSession"),
      ratio: round(mm("bytesPerSession") / mm("floorBytesPerSession")),
    };
  }
  return out;
});
