/**
 * Child of the sessions benchmark (run with --expose-gc): the heap that open, idle sessions hold. Opens every
 * session of a fileStore and keeps them; the floor holds the same journals as parsed JSON entries.
 * Usage: node --expose-gc session-heap.mjs DIR SESSIONS [PACKAGE_DIR]
 * PACKAGE_DIR: another build of June (its `dist/`), for before/after runs (`tools/ab-open.mjs`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { juneModule } from "../lib/june-module.mjs";

const [dir, count, packageDir] = process.argv.slice(2);
const { createChat, fileStore } = await juneModule("chat", packageDir);
const { scriptedModel } = await juneModule("testing", packageDir);
const ids = Array.from({ length: Number(count) }, (_, i) => `heap-${i}`);

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const chat = createChat({ model: scriptedModel("unused"), store: fileStore(dir) });
// Warm the code paths (and the store's listing cache) before the first reading.
const warm = await chat.openSession(ids[0]);
await warm.turns();

let before = settle();
const parsed = ids.map((id) =>
  readFileSync(join(dir, `${id}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line)),
);
const floorBytes = settle() - before;

before = settle();
const sessions = [];
for (const id of ids) sessions.push(await chat.openSession(id));
const sessionBytes = settle() - before;
// Keep both alive until after the readings.
if (parsed.length !== sessions.length) throw new Error("bench: lost a session");
process.stdout.write(`${JSON.stringify({ floorBytesPerSession: floorBytes / ids.length, bytesPerSession: sessionBytes / ids.length })}\n`);
