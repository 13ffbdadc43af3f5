#!/usr/bin/env node
/**
 * One build of June in a process of its own: a model chat over memoryStore (20-turn conversations, every event
 * read) beside a raw `streamText` turn on the same scripted model, alternating in each round; prints June's CPU
 * per turn, raw's, and their ratio. For a before/after where the two builds must not share a process (their
 * calls into one `ai` shape its inline caches differently), run it alternately for each build:
 *   for i in 1 2 3; do node bench/tools/ab-process.mjs OLD_PACKAGE_DIR 150; node bench/tools/ab-process.mjs packages/june 150; done
 * OLD_PACKAGE_DIR: a copy of `packages/june` (its `package.json` and `dist/`) inside this checkout, so that it
 * resolves this checkout's `ai`.
 */
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { streamText } from "ai";
const [dir, roundsArg = "150"] = process.argv.slice(2);
const chatMod = await import(pathToFileURL(join(dir, "dist/chat/index.js")).href);
const testing = await import(pathToFileURL(join(dir, "dist/testing/index.js")).href);
const deltas = Array.from({ length: 60 }, (_, i) => `word${i % 100} `);
const model = testing.scriptedModel(() => ({ text: deltas }), { provider: "bench", modelId: "scripted" });
const chat = chatMod.createChat({ model, store: chatMod.memoryStore() });
const input = (i) => `Question number ${i}: what comes next here?`;
async function june() { const s = await chat.createSession(); for (let i = 0; i < 20; i++) { const t = s.send(input(i)); for await (const e of t) {} await t.result; model.doStreamCalls.length = 0; } }
async function raw() { const h = []; for (let i = 0; i < 20; i++) { h.push({ role: "user", content: input(i) }); const r = streamText({ model, messages: h }); let text = ""; for await (const p of r.fullStream) if (p.type === "text-delta") text += p.text; h.push({ role: "assistant", content: text }); model.doStreamCalls.length = 0; } }
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let tj = 0, tr = 0;
const rounds = Number(roundsArg);
for (let r = 0; r < rounds + 10; r++) {
  const a = cpu(); await june(); const b = cpu(); await raw(); const c = cpu();
  if (r >= 10) { tj += b - a; tr += c - b; }
}
console.log(JSON.stringify({ dir: dir.split("/").pop(), juneMsPerTurn: +(tj / rounds / 20).toFixed(4), rawMsPerTurn: +(tr / rounds / 20).toFixed(4), ratio: +(tj / tr).toFixed(3) }));
