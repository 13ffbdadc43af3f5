/**
 * Child of the sessions benchmark: in a fresh process, lists every session of a fileStore, twice (the second
 * listing reuses what the first learned), and (as the floor) reads the directory and stats every journal.
 * Usage: node list-sessions.mjs DIR EXPECTED_SESSIONS
 */
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileStore } from "june/chat";

const [dir, expected] = process.argv.slice(2);

async function floor() {
  const start = performance.now();
  const names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl"));
  const infos = names.map((n) => ({ id: n, mtime: statSync(join(dir, n)).mtimeMs }));
  infos.sort((a, b) => b.mtime - a.mtime);
  return performance.now() - start;
}

const floorMs = await floor();
const store = fileStore(dir);
let start = performance.now();
const all = await store.listSessions();
const firstMs = performance.now() - start;
if (all.length !== Number(expected)) throw new Error(`expected ${expected} sessions, listed ${all.length}`);
start = performance.now();
await store.listSessions();
const secondMs = performance.now() - start;
start = performance.now();
const page = await store.listSessions({ limit: 20 });
const pageMs = performance.now() - start;
if (page.length !== 20) throw new Error(`a page of 20 listed ${page.length}`);
process.stdout.write(`${JSON.stringify({ floorMs, firstMs, secondMs, pageMs })}\n`);
