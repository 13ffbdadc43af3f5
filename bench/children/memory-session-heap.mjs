/**
 * Child of the sessions benchmark (run with --expose-gc): the heap idle memoryStore sessions hold, the store's
 * journal and the open session together, per session. SESSIONS sessions of 10 turns are journaled through the
 * store's `append` (as a model chat journals them), then opened and kept. The floor holds the same journals
 * as parsed JSON entries (what any in-memory history of them holds at least).
 * Usage: node --expose-gc memory-session-heap.mjs SESSIONS [PACKAGE_DIR]
 */
import { juneModule } from "../lib/june-module.mjs";
import { seedSession } from "../lib/fixtures.mjs";

const [count, packageDir] = process.argv.slice(2);
const { createChat, memoryStore } = await juneModule("chat", packageDir);
const { scriptedModel } = await juneModule("testing", packageDir);
const ids = Array.from({ length: Number(count) }, (_, i) => `heap-${i}`);

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

// Warm the code paths on a store of its own before the first reading; its journal's lines are the floor's.
const lines = [];
{
  const store = memoryStore();
  const chat = createChat({ model: scriptedModel("unused"), store });
  await store.createSession({ id: "heap-0" });
  await seedSession(store, "heap-0", { turns: 10 });
  await (await chat.openSession("heap-0")).turns();
  for (const entry of await store.read("heap-0")) lines.push(JSON.stringify(entry));
}
const per = (bytes) => bytes / ids.length;
// Kept reachable from the global object until every reading is taken.
const keep = (globalThis.__benchKeep = {});

let before = settle();
keep.parsed = ids.map(() => lines.map((line) => JSON.parse(line)));
const floorBytes = settle() - before;

before = settle();
const store = (keep.store = memoryStore());
for (const id of ids) {
  await store.createSession({ id });
  await seedSession(store, id, { turns: 10 });
}
const storeBytes = settle() - before;

before = settle();
const chat = createChat({ model: scriptedModel("unused"), store });
keep.sessions = [];
for (const id of ids) keep.sessions.push(await chat.openSession(id));
const sessionBytes = settle() - before;
process.stdout.write(
  `${JSON.stringify({ storeBytesPerSession: per(storeBytes), openBytesPerSession: per(sessionBytes), bytesPerSession: per(storeBytes + sessionBytes), floorBytesPerSession: per(floorBytes), journalBytesEach: lines.join("\n").length + 1 })}\n`,
);
