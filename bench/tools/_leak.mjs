const PKG = process.env.PKG ?? "/work/wt/perf/packages/june";
const { createChat, memoryStore, fullContext } = await import(PKG + "/dist/chat/index.js");
import { benchModel, inputOf } from "../lib/fixtures.mjs";
import v8 from "node:v8";
const [mode = "result", count = "300", turns = "10"] = process.argv.slice(2);
const model = benchModel();
const store = memoryStore();
const ctx = process.env.CTX === "default" ? {} : { context: fullContext() };
const chat = createChat({ model, store, ...ctx });
function settle() { for (let i = 0; i < 4; i++) globalThis.gc(); return process.memoryUsage().heapUsed; }
async function turn(session, t) {
  const turn = session.send(inputOf(t));
  if (mode === "read") for await (const e of turn) void e;
  await turn.result;
  model.forget();
}
for (let w = 0; w < 30; w++) { const s = await chat.createSession({ id: `warm-${w}` }); for (let t = 0; t < Number(turns); t++) await turn(s, t); }
const base = settle();
if (process.env.SNAP) v8.writeHeapSnapshot(process.env.SNAP + ".base");
const sessions = [];
for (let s = 0; s < Number(count); s++) { const x = await chat.createSession({ id: `live-${s}` }); for (let t = 0; t < Number(turns); t++) await turn(x, t); sessions.push(x); }
const live = settle() - base;
console.log(mode, Math.round(live / Number(count)), "bytes/session");
if (process.env.SNAP) v8.writeHeapSnapshot(process.env.SNAP);
