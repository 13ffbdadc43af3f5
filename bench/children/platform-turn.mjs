/**
 * Section 1's turn on one platform, in one process: raw `streamText` (the floor, and again as the A/A row), the
 * AI SDK's own chat pattern (`textStream`, then `(await response).messages` appended: what its docs show), and
 * June's model chat over memoryStore and fileStore (fsync on and off) and the one-step agent turn, rounds
 * interleaved. Self-contained: it imports `ai` and `june` by name, so it measures whichever the folder it sits
 * in resolves (this repository's build on Node 20 with `ai@6`; a copy placed in an app where June was packed
 * and installed beside `ai@7`, run on Node 24: `bench/sections/platforms.mjs`).
 *
 *   node platform-turn.mjs STATS_MODULE_URL ROUNDS TURNS_PER_ROUND TEMP_DIR
 *
 * With $JUNE_BENCH_BEFORE (a June package folder holding `dist/`, whose `ai` is the same as this one's), each June
 * variant also runs on that build, interleaved in the same rounds: before and after in one run.
 *
 * Prints one JSON line: per variant the median CPU and wall time per turn, and the CPU ratio to the floor
 * (medians over rounds, and round by round).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as ai from "ai";
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore, fullContext, memoryStore } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { scriptedModel } from "june/testing";

const [statsUrl, roundsArg = "15", turnsArg = "20", tempDir] = process.argv.slice(2);
const { interleave, measure, ratioSpread, round } = await import(statsUrl);
const rounds = Number(roundsArg);
const turnsPerRound = Number(turnsArg);
const DELTAS = Array.from({ length: 60 }, (_, i) => `word${i % 100} `);
const REPLY = DELTAS.join("");
const model = scriptedModel(() => ({ text: DELTAS }), { provider: "bench", modelId: "scripted" });
const forget = () => {
  model.doStreamCalls.length = 0;
};
const inputOf = (i) => `Question number ${i}: what comes next here?`;
const check = (text) => {
  if (text !== REPLY) throw new Error(`bench: a reply of ${text.length} characters where ${REPLY.length} were scripted`);
};

/** The floor: `streamText` over a plain message array, every part read (AI SDK 7's `stream`, 6's `fullStream`). */
async function rawTurn(history, input) {
  history.push({ role: "user", content: input });
  const result = ai.streamText({ model, messages: history });
  let text = "";
  for await (const part of result.stream ?? result.fullStream) {
    if (part.type === "text-delta") text += part.text;
    else if (part.type === "error") throw part.error;
  }
  history.push({ role: "assistant", content: text });
  forget();
  check(text);
}

/** The AI SDK's chat pattern: `textStream` read, then the response messages appended to the history. */
async function aiSdkChatTurn(messages, input) {
  messages.push({ role: "user", content: input });
  const result = ai.streamText({ model, messages });
  let text = "";
  for await (const delta of result.textStream) text += delta;
  messages.push(...(await result.response).messages);
  forget();
  check(text);
}

async function chatTurn(session, input) {
  const turn = session.send(input);
  let text = "";
  for await (const event of turn) if (event.type === "text-delta") text += event.text;
  const result = await turn.result;
  if (result.text !== text) throw new Error("bench: streamed text and result differ");
  forget();
  check(text);
}

/** This build's June, or another's (`$JUNE_BENCH_BEFORE`: a package folder with `dist/`, beside the same `ai`). */
const thisBuild = { Agent, Step, agentResponder, createChat, fileStore, fullContext, memoryStore, jsx };
async function otherBuild(dir) {
  const url = (path) => pathToFileURL(join(dir, "dist", path)).href;
  const [june, chat, runtime] = await Promise.all([import(url("index.js")), import(url("chat/index.js")), import(url("jsx/jsx-runtime.js"))]);
  return { Agent: june.Agent, Step: june.Step, ...chat, jsx: runtime.jsx };
}

function chatOf(key, build = thisBuild, tag = "") {
  const { Agent, Step, agentResponder, createChat, fileStore, fullContext, memoryStore, jsx } = build;
  const context = fullContext();
  if (key === "memory") return createChat({ model, store: memoryStore(), context });
  if (key === "file") return createChat({ model, store: fileStore(`${tempDir}/file${tag}`, { fsync: true }), context });
  if (key === "file-nosync") return createChat({ model, store: fileStore(`${tempDir}/file-nosync${tag}`, { fsync: false }), context });
  const responder = agentResponder({
    id: "bench-agent",
    version: "1",
    render: ({ messages, input }) => jsx(Agent, { model, children: jsx(Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }) }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
  return createChat({ responder, store: memoryStore(), context });
}

const timed = (each) => async () => {
  const m = await measure(async () => {
    for (let i = 0; i < turnsPerRound; i++) await each(i);
  });
  return { ...m, items: turnsPerRound };
};

const variants = [];
for (const name of ["raw", "raw-aa"]) {
  variants.push({ name, round: async () => { const history = []; return timed((i) => rawTurn(history, inputOf(i)))(); } });
}
variants.push({ name: "aisdk-chat", round: async () => { const messages = []; return timed((i) => aiSdkChatTurn(messages, inputOf(i)))(); } });
const before = process.env.JUNE_BENCH_BEFORE ? await otherBuild(process.env.JUNE_BENCH_BEFORE) : undefined;
for (const key of ["memory", "file", "file-nosync", "agent"]) {
  for (const [build, tag] of before ? [[before, " before"], [thisBuild, ""]] : [[thisBuild, ""]]) {
    const chat = chatOf(key, build, tag.trim());
    variants.push({ name: key + tag, round: async () => { const session = await chat.createSession(); return timed((i) => chatTurn(session, inputOf(i)))(); } });
  }
}

const results = await interleave(variants, { rounds, warmupRounds: 2 });
const floor = results.raw;
const rows = variants.map(({ name }) => {
  const spread = ratioSpread(results[name].cpuSamples, floor.cpuSamples);
  return {
    variant: name,
    cpuMs: round(results[name].cpuMs),
    wallMs: round(results[name].wallMs),
    cpuRatio: round(results[name].cpuMs / floor.cpuMs),
    wallRatio: round(results[name].wallMs / floor.wallMs),
    cpuRatioPerRound: { median: round(spread.median), q1: round(spread.q1), q3: round(spread.q3), ci95: spread.ci95.map((v) => round(v)) },
  };
});
const aiVersion = packageVersion(import.meta.resolve("ai"));
process.stdout.write(`${JSON.stringify({ node: process.version, ai: aiVersion, rounds, turnsPerRound, rows })}\n`);

/** The version in the package.json above a resolved module file (`ai` exports no package.json). */
function packageVersion(url) {
  for (let dir = dirname(fileURLToPath(url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8"));
      if (pkg.name === "ai") return pkg.version;
    }
  }
  return "unknown";
}
