/**
 * 11. Guardrails: what an output guardrail costs a streamed reply, `stream: "hold"` against `stream: "end"`
 * and none. The model streams its deltas 1 ms apart (a reply arriving over the network) and the check takes
 * a fixed time once the reply is whole (a moderation model's call, simulated by a timer). Per variant: when
 * the consumer sees the first text-delta (from `send`), when the turn ends, and the characters a second
 * the consumer reads while the reply streams (first to last delta). Never a per-token check.
 */
import { createChat } from "june/chat";
import { benchModel, replyDeltas } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { median, round } from "../lib/stats.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function turnTimes(chat, model) {
  const session = await chat.createSession();
  const sent = performance.now();
  const turn = session.send("Write.");
  let first;
  let last;
  let chars = 0;
  let events = 0;
  for await (const event of turn) {
    if (event.type !== "text-delta") continue;
    first ??= performance.now();
    last = performance.now();
    chars += event.text.length;
    events++;
  }
  await turn.result;
  const ended = performance.now();
  model.forget();
  const streamingMs = last - first;
  return { firstMs: first - sent, endMs: ended - sent, events, charsPerSecond: events > 1 && streamingMs > 0 ? (chars / streamingMs) * 1000 : null };
}

await section("guardrails", async ({ quick, log }) => {
  const deltas = quick ? 50 : 200;
  const checkMs = 50;
  const reps = quick ? 2 : 5;
  const model = benchModel({ deltas: replyDeltas(deltas), delay: 1 });
  const check = async () => {
    await sleep(checkMs);
    return undefined;
  };
  const variants = {
    none: createChat({ model, instructions: "Write." }),
    end: createChat({ model, instructions: "Write.", guardrails: { output: [{ name: "moderation", stream: "end", check }] } }),
    hold: createChat({ model, instructions: "Write.", guardrails: { output: [{ name: "moderation", stream: "hold", check }] } }),
  };
  log(`${reps} replies of ${deltas} deltas 1 ms apart per variant; the check takes ${checkMs} ms`);
  const samples = { none: [], end: [], hold: [] };
  for (let r = 0; r < reps + 1; r++) {
    for (const [name, chat] of Object.entries(variants)) {
      const t = await turnTimes(chat, model);
      if (r > 0) samples[name].push(t);
    }
  }
  const med = (name, key) => median(samples[name].map((s) => s[key]).filter((v) => v !== null));
  return {
    deltas,
    checkMs,
    rows: Object.keys(samples).map((variant) => ({
      variant,
      firstDeltaMs: round(med(variant, "firstMs")),
      turnMs: round(med(variant, "endMs")),
      textDeltaEvents: med(variant, "events"),
      charsPerSecond: samples[variant].every((s) => s.charsPerSecond === null) ? null : Math.round(med(variant, "charsPerSecond")),
    })),
  };
});
