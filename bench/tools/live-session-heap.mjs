#!/usr/bin/env node
/**
 * The heap an idle session holds after live turns (run with --expose-gc): SESSIONS sessions over one store
 * (memoryStore, or fileStore without fsync; fullContext), each sent TURNS turns of the bench model's 60-delta
 * reply and kept open; per session, `heapUsed` after gc over the heap before the first one (over memoryStore the
 * store's journal included). Then every session object is dropped: what the chat still keeps of them (over
 * memoryStore the store's journals, over fileStore nothing). The floor: the same journals as parsed JSON entries.
 * Usage: node --expose-gc bench/tools/live-session-heap.mjs memory|file [SESSIONS=300] [TURNS=10] [PACKAGE_DIR]
 */
import { juneModule } from "../lib/june-module.mjs";
import { benchModel, chatTurn, inputOf, tempDir } from "../lib/fixtures.mjs";

const [variant = "memory", count = "300", turnsArg = "10", packageDir] = process.argv.slice(2);
const { createChat, memoryStore, fileStore, fullContext } = await juneModule("chat", packageDir);
const model = benchModel();
if (variant !== "memory" && variant !== "file") throw new Error(`bench: unknown store ${variant}`);
const store = variant === "file" ? fileStore(tempDir(), { fsync: false }) : memoryStore();
const chat = createChat({ model, store, context: fullContext() });

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

// Warm the code paths with sessions dropped before the first reading: the first ones grow the heap by ~2 MB of
// the engine's own (compiled code, its feedback), whatever comes after; with one warm-up session that showed as
// ~6 KB per session at 300 sessions.
for (let w = 0; w < 30; w++) {
  const warm = await chat.createSession({ id: `warm-${w}` });
  for (let t = 0; t < Number(turnsArg); t++) await chatTurn(warm, inputOf(t), model);
}
const base = settle();
let sessions = [];
for (let s = 0; s < Number(count); s++) {
  const session = await chat.createSession({ id: `live-${s}` });
  for (let t = 0; t < Number(turnsArg); t++) await chatTurn(session, inputOf(t), model);
  sessions.push(session);
}
const live = settle() - base;
sessions = [];
const dropped = settle() - base;
let floor = [];
for (let s = 0; s < Number(count); s++) floor.push(JSON.parse(JSON.stringify(await store.read(`live-${s}`))));
const floorBytes = settle() - base - dropped;
floor = [];
const per = (bytes) => Math.round(bytes / Number(count));
process.stdout.write(`${JSON.stringify({ store: variant, sessions: Number(count), turns: Number(turnsArg), liveBytesPerSession: per(live), afterDropBytesPerSession: per(dropped), parsedJournalBytesPerSession: per(floorBytes) })}\n`);
