/**
 * 15. Recall: what memory adds to a model-chat turn on a memoryStore, against the same chat without memory: with
 * working memory alone (one store read), and with recall (one embedding call for the input and one search over
 * the owner's index of `indexed` earlier turns; the turn itself is indexed after it ends, off its path, in one
 * batched call). The embedding model answers after `embedMs` (a provider over the network, simulated by a
 * timer) with bag-of-words vectors. Per variant: the median turn (send to result), its CPU, their ratios to no
 * memory, and the embedding calls made per turn (on the turn's path and after it).
 */
import { createChat, memoryStore } from "june/chat";
import { bagOfWordsEmbedding } from "june/testing";
import { benchModel, replyDeltas } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { median, round } from "../lib/stats.mjs";

await section("recall", async ({ quick, log }) => {
  const embedMs = 20;
  const indexed = quick ? 200 : 2000;
  const turns = quick ? 10 : 40;
  const words = bagOfWordsEmbedding({ dimensions: 512 });
  const inner = words.doEmbed.bind(words);
  let embedCalls = 0;
  // The recording mock, slowed: every call waits as a provider's would.
  words.doEmbed = async (options) => {
    embedCalls++;
    await new Promise((resolve) => setTimeout(resolve, embedMs));
    return inner(options);
  };
  const model = benchModel({ deltas: replyDeltas(20) });
  const store = memoryStore();
  // The owner's earlier sessions, indexed beforehand.
  const topics = ["units", "project", "deploy", "billing", "travel", "recipes", "garden", "music"];
  const entries = [];
  for (let i = 0; i < indexed; i++) {
    const text = `User: about ${topics[i % topics.length]} number ${i}\nAssistant: noted ${i}`;
    const [embedding] = (await inner({ values: [text] })).embeddings;
    entries.push({ owner: "alice", sessionId: `old-${i % 50}`, turnId: `t-${i}`, text, contentHash: i.toString(16).padStart(64, "0"), embedding, at: new Date().toISOString() });
  }
  await store.putRecall(entries);
  await store.putMemory({ scope: "owner", id: "alice" }, { text: "Works in metric units. Project: Lark." });
  const variants = {
    none: createChat({ model, store }),
    working: createChat({ model, store, memory: { working: {} } }),
    recall: createChat({ model, store, memory: { working: {}, recall: { embeddingModel: words, topK: 3 } } }),
  };
  log(`${turns} turns per variant; ${indexed} turns indexed for the owner; each embedding call takes ${embedMs} ms`);
  // Round robin: each round one turn of every variant, so that warming up favours none.
  const runs = {};
  for (const [variant, chat] of Object.entries(variants)) runs[variant] = { chat, session: await chat.createSession({ owner: "alice" }), wall: [], cpu: [], calls: 0, onPath: 0 };
  for (let i = 0; i < turns + 2; i++) {
    for (const [variant, run] of Object.entries(runs)) {
      const before = embedCalls;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run.session.send(`What about the ${topics[i % topics.length]}, turn ${i}?`).result;
      const t1 = performance.now();
      const c = process.cpuUsage(c0);
      run.onPath += embedCalls - before;
      if (variant === "recall") await run.chat.memory("alice").indexed();
      run.calls += embedCalls - before;
      if (i >= 2) {
        run.wall.push(t1 - t0);
        run.cpu.push((c.user + c.system) / 1000);
      }
    }
  }
  const rows = Object.entries(runs).map(([variant, run]) => ({ variant, wallMs: median(run.wall), cpuMs: median(run.cpu), embedCallsPerTurn: round(run.calls / (turns + 2)), onPathPerTurn: round(run.onPath / (turns + 2)) }));
  const base = rows.find((r) => r.variant === "none");
  return {
    embedMs,
    indexed,
    turns,
    rows: rows.map((r) => ({ ...r, wallMs: round(r.wallMs), cpuMs: round(r.cpuMs), wallRatio: round(r.wallMs / base.wallMs), cpuRatio: round(r.cpuMs / base.cpuMs) })),
  };
});
