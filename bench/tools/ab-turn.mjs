#!/usr/bin/env node
/**
 * Before/after in one process: the turn section's variants driven through two builds of June at once, rounds
 * interleaved, each a ratio to the same raw `streamText` floor:
 *   node --expose-gc bench/tools/ab-turn.mjs /path/to/old/packages/june [rounds] [variants]
 * The old package is a copy of `packages/june` (its `package.json` and `dist/`) from another commit; both
 * builds share this checkout's `ai`. Variants: memory, file, file-nosync, agent (comma-separated). A second raw
 * floor (`raw A/A`) runs interleaved like the rest: its ratio is the run's noise. Each row also gives its CPU
 * ratio round by round (to the floor in the same round): median, quartiles, a 95 % interval of the median; and
 * for each variant the after/before ratio round by round.
 */
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { streamText } from "ai";
import { benchModel, inputOf, rawTurn, tempDir } from "../lib/fixtures.mjs";
import { interleave, measure, ratioSpread, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "15", variantsArg = "memory,file,file-nosync,agent"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-turn.mjs OLD_PACKAGE_DIR [rounds] [variants]");
const rounds = Number(roundsArg);
const turnsPerRound = 20;
const keys = variantsArg.split(",");

async function load(dir) {
  const url = (p) => pathToFileURL(join(dir, "dist", p)).href;
  return { june: await import(url("index.js")), chat: await import(url("chat/index.js")), jsx: await import(url("jsx/jsx-runtime.js")) };
}
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
void streamText;

function chatOf({ june, chat, jsx }, key, model, dir) {
  const context = chat.fullContext();
  if (key === "memory") return chat.createChat({ model, store: chat.memoryStore(), context });
  if (key === "file") return chat.createChat({ model, store: chat.fileStore(dir, { fsync: true }), context });
  if (key === "file-nosync") return chat.createChat({ model, store: chat.fileStore(dir, { fsync: false }), context });
  const responder = chat.agentResponder({
    render: ({ messages, input }) =>
      jsx.jsx(june.Agent, { model, children: jsx.jsx(june.Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }) }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
  return chat.createChat({ responder, store: chat.memoryStore(), context });
}

const model = benchModel();
const dir = tempDir();
const rawVariant = (name) => ({
  name,
  async round() {
    const history = [];
    const m = await measure(async () => {
      for (let i = 0; i < turnsPerRound; i++) await rawTurn(model, history, inputOf(i));
    });
    return { ...m, items: turnsPerRound };
  },
});
const variants = [rawVariant("raw"), rawVariant("raw A/A")];
for (const key of keys) {
  for (const build of ["before", "after"]) {
    const chat = chatOf(builds[build], key, model, `${dir}/${build}-${key}`);
    variants.push({
      name: `${key} ${build}`,
      async round() {
        const session = await chat.createSession();
        const m = await measure(async () => {
          for (let i = 0; i < turnsPerRound; i++) {
            const turn = session.send(inputOf(i));
            for await (const event of turn) void event;
            await turn.result;
            model.forget();
          }
        });
        return { ...m, items: turnsPerRound };
      },
    });
  }
}
const results = await interleave(variants, { rounds, warmupRounds: 2 });
const floor = results.raw;
const spreadText = (p) => `${round(p.median)} [${round(p.q1)}–${round(p.q3)}]  ${round(p.ci95[0])}–${round(p.ci95[1])}`;
const rows = [["variant", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio", "per round: median [q1–q3]  95 % interval"]];
for (const [name, r] of Object.entries(results)) {
  rows.push([name, `${round(r.cpuMs)} ms`, `${round(r.wallMs)} ms`, `${round(r.cpuMs / floor.cpuMs)}×`, `${round(r.wallMs / floor.wallMs)}×`, spreadText(ratioSpread(r.cpuSamples, floor.cpuSamples))]);
}
for (const key of keys) {
  const after = results[`${key} after`];
  const before = results[`${key} before`];
  rows.push([`${key} after/before`, "", "", `${round(after.cpuMs / before.cpuMs)}×`, `${round(after.wallMs / before.wallMs)}×`, spreadText(ratioSpread(after.cpuSamples, before.cpuSamples))]);
}
for (const row of rows) console.log(row.map((c, i) => (i === 0 ? c.padEnd(24) : i === 5 ? `  ${c}` : c.padStart(11))).join(" "));
process.exit(0);
