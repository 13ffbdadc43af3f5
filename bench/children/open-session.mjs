/**
 * Child of the sessions benchmark: in a fresh process, opens a fileStore session and reads its turns, and (as
 * the floor) reads the same journal and parses every line. Prints one JSON line of figures.
 * Usage: node open-session.mjs DIR SESSION_ID EXPECTED_TURNS FLOOR_FIRST(0|1|floor|june) [PACKAGE_DIR]
 * FLOOR_FIRST "floor" or "june": that one alone in this process.
 * PACKAGE_DIR: another build of June (its `dist/`), for before/after runs (`tools/ab-open.mjs`).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { juneModule } from "../lib/june-module.mjs";

const [dir, id, expected, floorFirst, packageDir] = process.argv.slice(2);
const t0 = performance.now();
const { createChat, fileStore } = await juneModule("chat", packageDir);
const { scriptedModel } = await juneModule("testing", packageDir);
// The store's implementation loads on its first call (fileStore since issue 29): loaded here, before the clock,
// as a build before that loaded it with the import, so that open + load measures the same work in every build.
const store = fileStore(dir);
await store.getSession("bench-not-a-session");
const importMs = performance.now() - t0;

async function floor() {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const text = await readFile(join(dir, `${id}.jsonl`), "utf8");
  const entries = [];
  for (const line of text.split("\n")) if (line) entries.push(JSON.parse(line));
  return { ms: performance.now() - start, cpuMs: cpuMs(cpu), entries: entries.length };
}

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function june() {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const chat = createChat({ model: scriptedModel("unused"), store });
  const session = await chat.openSession(id);
  const openMs = performance.now() - start;
  const openCpuMs = cpuMs(cpu);
  const turns = await session.turns();
  const turnsMs = performance.now() - start;
  const turnsCpuMs = cpuMs(cpu);
  if (turns.length !== Number(expected)) throw new Error(`expected ${expected} turns, read ${turns.length}`);
  return { openMs, turnsMs, openCpuMs, turnsCpuMs };
}

/** The floor's figures as this child prints them. */
const floorFigures = (f) => ({ floorMs: f.ms, floorCpuMs: f.cpuMs, entries: f.entries });

let figures;
if (floorFirst === "floor") {
  // One of the two alone, in a process of its own: neither warms the other's code or the file's pages.
  figures = floorFigures(await floor());
} else if (floorFirst === "june") {
  figures = await june();
} else if (floorFirst === "1") {
  const f = await floor();
  figures = { ...floorFigures(f), ...(await june()) };
} else {
  const j = await june();
  figures = { ...floorFigures(await floor()), ...j };
}
process.stdout.write(`${JSON.stringify({ importMs, ...figures })}\n`);
