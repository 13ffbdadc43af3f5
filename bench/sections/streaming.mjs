/**
 * 4. Streaming: how many commits (run updates) a 10,000-delta reply costs, an agentResponder turn's
 * `run-update` events and a bare `start()`'s `onUpdate` calls, with the CPU of the whole reply against raw
 * `streamText`; and the time from the model's first delta to the first `text-delta` a consumer sees.
 */
import { streamText } from "ai";
import { Agent, Step, start } from "june";
import { createChat } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { benchAgent, benchModel, replyDeltas } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { measure, median, round } from "../lib/stats.mjs";

/** Stamps when the model hands out its first text delta of each call, in `model.firstDeltaAt`. */
function stampFirstDelta(model) {
  const inner = model.doStream;
  model.doStream = async (options) => {
    const result = await inner(options);
    let seen = false;
    const stamp = new TransformStream({
      transform(part, controller) {
        if (!seen && part.type === "text-delta") {
          seen = true;
          model.firstDeltaAt = performance.now();
        }
        controller.enqueue(part);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(stamp) };
  };
  return model;
}

async function rawReply(model, prompt) {
  const result = streamText({ model, prompt });
  let text = "";
  let firstAt;
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") {
      firstAt ??= performance.now();
      text += part.text;
    }
  }
  model.forget();
  return { text, firstAt, updates: 0, deltas: 0 };
}

async function chatReply(session, input, model) {
  const turn = session.send(input);
  let text = "";
  let firstAt;
  let updates = 0;
  let deltas = 0;
  for await (const event of turn) {
    if (event.type === "run-update") updates++;
    if (event.type === "text-delta") {
      firstAt ??= performance.now();
      deltas++;
      text += event.text;
    }
  }
  const result = await turn.result;
  if (result.text !== text) throw new Error("bench: streamed text and result differ");
  model.forget();
  return { text, firstAt, updates, deltas };
}

await section("streaming", async ({ quick, log }) => {
  const deltaCount = quick ? 2_000 : 10_000;
  const reps = quick ? 2 : 5;
  const expected = replyDeltas(deltaCount).join("");

  // Commits and CPU per long reply.
  const model = benchModel({ deltas: replyDeltas(deltaCount) });
  const modelChat = createChat({ model });
  const agentChat = createChat({ responder: benchAgent(model) });
  const samples = { raw: [], model: [], agent: [], start: [] };
  log(`${reps} replies of ${deltaCount} deltas per variant`);
  for (let r = 0; r < reps + 1; r++) {
    const runs = {
      raw: () => rawReply(model, "Write a lot."),
      model: async () => chatReply(await modelChat.createSession(), "Write a lot.", model),
      agent: async () => chatReply(await agentChat.createSession(), "Write a lot.", model),
      start: async () => {
        let updates = 0;
        const handle = start(jsx(Agent, { model, children: jsx(Step, { id: "reply", stream: true, prompt: "Write a lot." }) }), {
          onUpdate: () => updates++,
        });
        const result = await handle.result;
        model.forget();
        return { text: String(result.steps.reply), updates, deltas: 0 };
      },
    };
    for (const [name, run] of Object.entries(runs)) {
      const m = await measure(run);
      if (m.value.text !== expected) throw new Error(`bench: ${name} replied ${m.value.text.length} chars, expected ${expected.length}`);
      if (r > 0) samples[name].push({ cpuMs: m.cpuMs, wallMs: m.wallMs, updates: m.value.updates, deltas: m.value.deltas });
    }
  }
  const med = (name, key) => median(samples[name].map((s) => s[key]));
  const long = {
    deltas: deltaCount,
    rows: ["raw", "model", "agent", "start"].map((name) => ({
      variant: name,
      cpuMs: round(med(name, "cpuMs")),
      wallMs: round(med(name, "wallMs")),
      cpuRatio: round(med(name, "cpuMs") / med("raw", "cpuMs")),
      commits: name === "agent" || name === "start" ? med(name, "updates") : null,
      textDeltaEvents: name === "model" || name === "agent" ? med(name, "deltas") : null,
    })),
  };

  // The same reply arriving in chunks, as from a network: 100 deltas per chunk, chunks 1 ms apart.
  const chunked = benchModel({ deltas: replyDeltas(deltaCount).map((text, i) => (i % 100 === 0 ? { text, delay: 1 } : text)) });
  const chunkedAgentChat = createChat({ responder: benchAgent(chunked) });
  const chunkedRuns = [];
  for (let r = 0; r < reps; r++) {
    let updates = 0;
    const handle = start(jsx(Agent, { model: chunked, children: jsx(Step, { id: "reply", stream: true, prompt: "Write a lot." }) }), {
      onUpdate: () => updates++,
    });
    await handle.result;
    chunked.forget();
    const turn = await chatReply(await chunkedAgentChat.createSession(), "Write a lot.", chunked);
    chunkedRuns.push({ startCommits: updates, agentCommits: turn.updates, agentDeltas: turn.deltas });
  }
  long.chunked = {
    chunks: deltaCount / 100,
    startCommits: median(chunkedRuns.map((r) => r.startCommits)),
    agentCommits: median(chunkedRuns.map((r) => r.agentCommits)),
    agentTextDeltaEvents: median(chunkedRuns.map((r) => r.agentDeltas)),
  };

  // First delta to first text-delta event.
  // Deltas 1 ms apart after the first, as a provider streams them: a burst would keep the loop busy and
  // measure how long the rest of the burst takes rather than how long the first delta waits.
  const firstDelay = 20;
  const paced = stampFirstDelta(benchModel({ firstDelay, delay: 1, deltas: replyDeltas(10) }));
  const pacedModelChat = createChat({ model: paced });
  const pacedAgentChat = createChat({ responder: benchAgent(paced) });
  const latency = { raw: [], model: [], agent: [] };
  const latencyReps = quick ? 4 : 15;
  log(`${latencyReps} first-delta latencies per variant (model waits ${firstDelay} ms before its first delta)`);
  for (let r = 0; r < latencyReps + 2; r++) {
    const runs = {
      raw: () => rawReply(paced, "Hi"),
      model: async () => chatReply(await pacedModelChat.createSession(), "Hi", paced),
      agent: async () => chatReply(await pacedAgentChat.createSession(), "Hi", paced),
    };
    for (const [name, run] of Object.entries(runs)) {
      paced.firstDeltaAt = undefined;
      const { firstAt } = await run();
      if (r >= 2) latency[name].push(firstAt - paced.firstDeltaAt);
    }
  }
  const firstDelta = {
    firstDelayMs: firstDelay,
    rows: ["raw", "model", "agent"].map((name) => ({
      variant: name,
      ms: round(median(latency[name])),
      maxMs: round(Math.max(...latency[name])),
      overFloorMs: round(median(latency[name]) - median(latency.raw)),
    })),
  };
  return { long, firstDelta };
});
