/**
 * 10. Durable turns: what `agentResponder({ durable: true })` adds to a plain agent turn. A two-step
 * workflow (a "plan" step, then the streamed "reply" step; no approvals, so the turn never waits) answered
 * plain and durable, over memoryStore and over fileStore (fsync on: each checkpoint is a temporary file,
 * flushed and renamed into place, and the turn-end deletes it). A durable turn writes a checkpoint after
 * each step and deletes it with the turn's end. Variants interleaved; ratios to the plain turn on the same store.
 */
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore, memoryStore } from "june/chat";
import { jsx, jsxs } from "june/jsx-runtime";
import { benchModel, chatTurn, inputOf, removeDir, tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

function twoSteps(model, durable) {
  return agentResponder({
    id: "bench-durable",
    version: "1",
    ...(durable ? { durable: true } : {}),
    render: ({ messages, input }) =>
      jsxs(Agent, {
        model,
        children: [
          jsx(Step, { id: "plan", prompt: `Plan: ${input}` }),
          jsx(Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }),
        ],
      }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
}

await section("durable", async ({ quick, log }) => {
  const rounds = quick ? 3 : 15;
  const turnsPerRound = quick ? 5 : 20;
  const model = benchModel();
  const dir = tempDir("june-bench-durable-");
  const variants = [];
  for (const store of ["memory", "file"]) {
    for (const durable of [false, true]) {
      variants.push({
        name: `${store}-${durable ? "durable" : "plain"}`,
        async round(i) {
          const where = `${dir}/${store}-${durable}-${i}-${Math.random().toString(36).slice(2)}`;
          const chat = createChat({ responder: twoSteps(model, durable), store: store === "memory" ? memoryStore() : fileStore(where) });
          const session = await chat.createSession();
          const m = await measure(async () => {
            for (let t = 0; t < turnsPerRound; t++) await chatTurn(session, inputOf(t), model);
          });
          await chat.store.close?.();
          if (store === "file") removeDir(where);
          return { ...m, items: turnsPerRound };
        },
      });
    }
  }
  log(`${rounds} rounds of ${turnsPerRound} two-step agent turns per variant (+2 warm-up rounds)`);
  const results = await interleave(variants, { rounds, warmupRounds: 2 });
  const rows = [];
  for (const store of ["memory", "file"]) {
    const plain = results[`${store}-plain`];
    for (const kind of ["plain", "durable"]) {
      const r = results[`${store}-${kind}`];
      rows.push({
        store,
        kind,
        cpuMs: round(r.cpuMs),
        wallMs: round(r.wallMs),
        cpuRatio: round(r.cpuMs / plain.cpuMs),
        wallRatio: round(r.wallMs / plain.wallMs),
        wallOverPlainMs: round(r.wallMs - plain.wallMs),
      });
    }
  }
  return { rounds, turnsPerRound, deltas: 60, rows };
});
