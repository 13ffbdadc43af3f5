#!/usr/bin/env node
/**
 * A responder alone, without a chat: `respond()` called directly with a fixed 20-message context, its events
 * read and its result awaited, two builds in one process, rounds interleaved, each a ratio to the same raw
 * `streamText` floor (the same messages and input). What a responder adds to a turn, without the chat's
 * journal, context and turn plumbing in the figure:
 *   node --expose-gc bench/tools/ab-responder.mjs /path/to/old/packages/june [rounds] [agent,model]
 * `agent`: agentResponder rendering `<Agent model><Step id="reply" stream prompt={[...messages, input]} /></Agent>`
 * (section 1's workflow); `model`: modelResponder({ model }).
 */
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { benchModel, inputOf, rawTurn } from "../lib/fixtures.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

const [oldDir, roundsArg = "30", variantsArg = "agent,model"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: ab-responder.mjs OLD_PACKAGE_DIR [rounds] [variants]");
const turnsPerRound = 20;

async function load(dir) {
  const url = (p) => pathToFileURL(join(dir, "dist", p)).href;
  return { june: await import(url("index.js")), chat: await import(url("chat/index.js")), jsx: await import(url("jsx/jsx-runtime.js")) };
}
const builds = { before: await load(oldDir), after: await load(new URL("../../packages/june", import.meta.url).pathname) };
const model = benchModel();
// A context as fullContext hands it over: frozen messages, the same array every turn.
const history = Array.from({ length: 20 }, (_, i) => Object.freeze({ role: i % 2 ? "assistant" : "user", content: inputOf(i) }));

function responderOf({ june, chat, jsx }, key) {
  if (key === "model") return chat.modelResponder({ model });
  if (key !== "agent") throw new Error(`ab-responder: unknown variant ${key}`);
  return chat.agentResponder({
    render: ({ messages, input }) =>
      jsx.jsx(june.Agent, { model, children: jsx.jsx(june.Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }) }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
}

const variants = [
  {
    name: "raw",
    async round() {
      const m = await measure(async () => {
        for (let i = 0; i < turnsPerRound; i++) await rawTurn(model, history.slice(), inputOf(i));
      });
      return { ...m, items: turnsPerRound };
    },
  },
];
for (const key of variantsArg.split(",")) {
  for (const build of ["before", "after"]) {
    const responder = responderOf(builds[build], key);
    variants.push({
      name: `${key} ${build}`,
      async round() {
        const m = await measure(async () => {
          for (let i = 0; i < turnsPerRound; i++) {
            const execution = responder.respond({ input: inputOf(i), messages: history, signal: new AbortController().signal, sessionId: "s", turnId: `t${i}` });
            let text = "";
            for await (const event of execution.events) if (event.type === "text-delta") text += event.text;
            const result = await execution.result;
            if (result.text !== text) throw new Error("ab-responder: streamed text and result differ");
            model.forget();
          }
        });
        return { ...m, items: turnsPerRound };
      },
    });
  }
}
const results = await interleave(variants, { rounds: Number(roundsArg), warmupRounds: 2 });
const floor = results.raw;
const rows = [["variant", "CPU/turn", "wall/turn", "CPU ratio", "wall ratio"]];
for (const [name, r] of Object.entries(results)) rows.push([name, `${round(r.cpuMs)} ms`, `${round(r.wallMs)} ms`, `${round(r.cpuMs / floor.cpuMs)}×`, `${round(r.wallMs / floor.wallMs)}×`]);
for (const row of rows) console.log(row.map((c, i) => (i === 0 ? c.padEnd(20) : c.padStart(11))).join(" "));
