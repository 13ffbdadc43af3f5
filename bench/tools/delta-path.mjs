#!/usr/bin/env node
/**
 * A model chat's path for its deltas, without the AI SDK: a chat over memoryStore whose responder pushes the
 * reply's 60 deltas into June's own reply buffer (`ReplayBuffer`, as `modelResponder` does), one per awaited
 * promise (as a stream read hands them), and the turn's reader takes them (`for await` over the turn). Both
 * builds in one process, rounds interleaved, medians; what it prints is June's own work per turn on that path
 * (the turn, its journal entries, the follow, the reader), the part a real turn measures only under the AI
 * SDK's much larger cost:
 *   node --expose-gc bench/tools/delta-path.mjs OLD_PACKAGE_DIR [rounds=40] [deltas=60]
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inputOf, replyDeltas } from "../lib/fixtures.mjs";
import { interleave, measure, ratioSpread, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "40", deltasArg = "60"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: delta-path.mjs OLD_PACKAGE_DIR [rounds] [deltas]");
const deltas = replyDeltas(Number(deltasArg));
const reply = deltas.join("");
const turnsPerRound = 200;

async function load(dir) {
  const url = (p) => pathToFileURL(join(dir, "dist", p)).href;
  return { chat: await import(url("chat/index.js")), ReplayBuffer: (await import(url("chat/internal/replay-buffer.js"))).ReplayBuffer };
}
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };

function chatOf({ chat, ReplayBuffer }) {
  const responder = {
    kind: "bench",
    respond() {
      const events = new ReplayBuffer({ discardRead: true });
      const result = (async () => {
        for (const text of deltas) {
          await null;
          events.push({ type: "text-delta", text });
        }
        await events.drained();
        events.end();
        return { text: reply };
      })();
      return { result, events };
    },
  };
  return chat.createChat({ responder, store: chat.memoryStore(), context: chat.fullContext() });
}

const variants = Object.entries(builds).map(([name, build]) => {
  const chat = chatOf(build);
  return {
    name,
    async round() {
      const session = await chat.createSession();
      const m = await measure(async () => {
        for (let i = 0; i < turnsPerRound; i++) {
          const turn = session.send(inputOf(i));
          let text = "";
          for await (const event of turn) if (event.type === "text-delta") text += event.text;
          if ((await turn.result).text !== text) throw new Error("delta-path: streamed text and result differ");
        }
      });
      return { ...m, items: turnsPerRound };
    },
  };
});
const results = await interleave(variants, { rounds: Number(roundsArg), warmupRounds: 3 });
const p = ratioSpread(results.after.cpuSamples, results.before.cpuSamples);
console.log(`June's path for ${deltas.length} deltas, CPU per turn: before ${round(results.before.cpuMs * 1000)} µs, after ${round(results.after.cpuMs * 1000)} µs`);
console.log(`after/before ${round(results.after.cpuMs / results.before.cpuMs)}×; per round ${round(p.median)} [${round(p.q1)}–${round(p.q3)}], 95 % interval ${round(p.ci95[0])}–${round(p.ci95[1])}`);
process.exit(0);
