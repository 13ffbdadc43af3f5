#!/usr/bin/env node
/**
 * A model chat's turn taken apart, in one process (rounds interleaved and rotated, per-round ratios to the raw
 * floor): raw `streamText`; `modelResponder` called directly over a growing array of frozen messages (telemetry
 * off); the same plus the turn's two journal appends made straight on a memoryStore (its `turn-start` before the
 * call, its `turn-end` after, as the chat makes them); and the whole chat over memoryStore (telemetry off). What
 * the chat adds beyond the responder and its two appends is its context, its turn, the follow and the reader:
 *   node --expose-gc bench/tools/chat-parts.mjs [rounds=40]
 */
import { createChat, fullContext, memoryStore, modelResponder } from "june/chat";
import { benchModel, chatTurn, inputOf, rawTurn } from "../lib/fixtures.mjs";
import { interleave, measure, ratioSpread, round } from "../lib/stats.mjs";
const rounds = Number(process.argv[2] ?? 40);
const model = benchModel();
const responder = modelResponder({ model });
const store = memoryStore();
const v = (name, fn) => ({ name, async round() { const m = await measure(fn); return { ...m, items: 20 }; } });
let n = 0;
const ra = (withStore) => async () => {
  const history = [];
  const sid = `s${n++}`;
  let seq = 0;
  if (withStore) { await store.createSession({ id: sid }); seq = 1; }
  for (let i = 0; i < 20; i++) {
    const input = inputOf(i);
    const turnId = `t${i}`;
    if (withStore) { const w = await store.append(sid, [{ type: "turn-start", turnId, input, context: { builder: "fullContext", turnIds: [] } }], { expectedSeq: seq }); seq = w.at(-1).seq; }
    const execution = responder.respond({ turnId, sessionId: sid, input, messages: history, signal: new AbortController().signal, telemetry: false });
    for await (const e of execution.events) void e;
    const result = await execution.result;
    if (withStore) { const w = await store.append(sid, [{ type: "turn-end", turnId, status: "completed", text: result.text, metadata: { responder: { kind: "model" }, ...result.metadata } }], { expectedSeq: seq, sync: true }); seq = w.at(-1).seq; }
    history.push(Object.freeze({ role: "user", content: input }), Object.freeze({ role: "assistant", content: result.text }));
    model.forget();
  }
};
const chat = createChat({ model, store: memoryStore(), context: fullContext(), telemetry: false });
const variants = [
  v("raw", async () => { const h = []; for (let i = 0; i < 20; i++) await rawTurn(model, h, inputOf(i)); }),
  v("responder alone", ra(false)),
  v("responder + memoryStore appends", ra(true)),
  v("chat", async () => { const s = await chat.createSession(); for (let i = 0; i < 20; i++) await chatTurn(s, inputOf(i), model); }),
];
const results = await interleave(variants, { rounds, warmupRounds: 3 });
console.log(`${"part".padEnd(34)} ${"CPU/turn".padStart(9)} ${"ratio".padStart(7)}   per round: median, 95 % interval`);
for (const [name, r] of Object.entries(results)) {
  const p = ratioSpread(r.cpuSamples, results.raw.cpuSamples);
  console.log(name.padEnd(34), `${round(r.cpuMs)} ms`.padStart(9), `${round(r.cpuMs / results.raw.cpuMs)}×`.padStart(7), `  ${round(p.median)}, ${round(p.ci95[0])}–${round(p.ci95[1])}`);
}
process.exit(0);
