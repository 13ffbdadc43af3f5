#!/usr/bin/env node
/**
 * Where a model chat's turn cost goes, layer by layer, in one process (rounds interleaved, order rotating,
 * medians): the raw `streamText` floor; the same call with the options June's model responder adds (an abort
 * signal, `onError`, the silent telemetry settings that watch retries); `modelResponder` called directly (its
 * trace, excerpts, reply buffer); and the whole chat over memoryStore (context, journal, turn):
 *   node --import tsx --expose-gc bench/tools/turn-layers.mjs [rounds=40]
 * (tsx: the retry-watching telemetry settings come from June's source, `ai-sdk/attempts-v6.ts`; the bundle has no
 * file of their own.)
 * Each row is a ratio to the floor and what it adds over the row above. The last row is apart: the chat over
 * memoryStore with a responder that answers at once (no model, no events): the chat's own fixed work per turn.
 */
import { createChat, fullContext, memoryStore, modelResponder } from "june/chat";
import { observeAttempts } from "../../packages/june/src/ai-sdk/attempts-v6.ts";
import { benchModel, chatTurn, inputOf, rawTurn } from "../lib/fixtures.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

const rounds = Number(process.argv[2] ?? 40);
const model = benchModel();

const responder = modelResponder({ model });
async function responderTurn(history, input) {
  const abort = new AbortController();
  const execution = responder.respond({ turnId: "t", sessionId: "s", input, messages: history, signal: abort.signal });
  let text = "";
  for await (const event of execution.events) if (event.type === "text-delta") text += event.text;
  const result = await execution.result;
  if (result.text !== text) throw new Error("turn-layers: streamed text and result differ");
  history.push({ role: "user", content: input }, { role: "assistant", content: result.text });
  model.forget();
}

const chat = createChat({ model, store: memoryStore(), context: fullContext() });
/** The options June's model responder adds to every call (an abort signal, `onError`, the retry-watching telemetry). */
const juneCallOptions = () => ({ abortSignal: new AbortController().signal, onError: () => {}, experimental_telemetry: observeAttempts(undefined, { onAttempt() {}, onAttemptError() {} }) });
const layers = [
  ["raw streamText", (h, input) => rawTurn(model, h, input)],
  [
    "+ June's call options",
    (h, input) => rawTurn(model, h, input, { callOptions: juneCallOptions() }),
  ],
  [
    "+ one-call step callbacks",
    (h, input) =>
      rawTurn(model, h, input, {
        callOptions: {
          ...juneCallOptions(),
          stopWhen: () => true,
          prepareStep: async ({ messages }) => ({ messages }),
          onStepFinish: (step) => void step.response.messages,
        },
      }),
  ],
  ["modelResponder alone", responderTurn],
];
const variants = layers.map(([name, turn]) => ({
  name,
  async round() {
    const history = [];
    const m = await measure(async () => {
      for (let i = 0; i < 20; i++) await turn(history, inputOf(i));
    });
    return { ...m, items: 20 };
  },
}));
variants.push({
  name: "createChat + memoryStore",
  async round() {
    const session = await chat.createSession();
    const m = await measure(async () => {
      for (let i = 0; i < 20; i++) await chatTurn(session, inputOf(i), model);
    });
    return { ...m, items: 20 };
  },
});
// The chat's fixed work: a responder that answers at once with the same reply (no model, no events).
const reply = (await rawTurn(model, [], "warm-up")).toString();
const instant = createChat({ responder: { kind: "instant", respond: () => ({ result: Promise.resolve({ text: reply }) }) }, store: memoryStore(), context: fullContext() });
variants.push({
  name: "chat, instant responder",
  async round() {
    const session = await instant.createSession();
    const m = await measure(async () => {
      for (let i = 0; i < 20; i++) {
        const turn = session.send(inputOf(i));
        for await (const event of turn) void event;
        await turn.result;
      }
    });
    return { ...m, items: 20 };
  },
});
const results = await interleave(variants, { rounds, warmupRounds: 3 });
const floor = results["raw streamText"].cpuMs;
let previous = floor;
console.log(`${"layer".padEnd(26)} ${"CPU/turn".padStart(9)} ${"ratio".padStart(7)} ${"adds".padStart(9)}`);
for (const [name, r] of Object.entries(results)) {
  if (name === "chat, instant responder") {
    console.log(`${name.padEnd(26)} ${`${round(r.cpuMs)} ms`.padStart(9)}   (apart: the chat's fixed work, no model)`);
    continue;
  }
  console.log(`${name.padEnd(26)} ${`${round(r.cpuMs)} ms`.padStart(9)} ${`${round(r.cpuMs / floor)}×`.padStart(7)} ${`${Math.round((r.cpuMs - previous) * 1000)} µs`.padStart(9)}`);
  previous = r.cpuMs;
}
process.exit(0);
