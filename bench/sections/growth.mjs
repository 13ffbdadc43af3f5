/**
 * 2. Growth with history: the per-turn cost at history sizes 10 … 10,000 turns, for a model chat over
 * memoryStore and fileStore and for the one-step agent, with fullContext and recentTurns(20), against raw
 * `streamText` over the same messages at the same size. For each size and context, every variant gets a
 * session seeded through its store's `append` (the raw floor: the same messages in an array), opened, and
 * warmed with a few untimed turns; then the variants take turns, a few timed turns each per round. Figures
 * are medians over all timed turns. Each cell's history grows by the turns it runs (about 35).
 */
import { randomUUID } from "node:crypto";
import { benchModel, chatTurn, contextOf, inputOf, rawTurn, removeDir, seedSession, tempDir, variantChat } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { measure, median, round } from "../lib/stats.mjs";

const VARIANTS = ["raw", "memory", "file-nosync", "agent"];
const CONTEXTS = ["fullContext", "recentTurns(20)"];

await section("growth", async ({ quick, log }) => {
  const sizes = quick ? [10, 1_000] : [10, 100, 1_000, 10_000];
  const rounds = quick ? 2 : 8;
  const turnsPerRound = quick ? 2 : 4;
  const warmTurns = 3;
  const model = benchModel();
  const root = tempDir();

  /** A variant's session at `size` turns, ready to take turns: `{ turn(i), dispose() }`. */
  async function prepare(variant, contextName, size) {
    if (variant === "raw") {
      const chat = variantChat("memory", { model, context: contextOf(contextName) });
      const { id } = await chat.createSession();
      const history = await seedSession(chat.store, id, { turns: size, contextName });
      await chat.deleteSession(id);
      const window = contextName === "fullContext" ? undefined : 20;
      return { turn: (i) => rawTurn(model, history, inputOf(i), { window }), dispose: async () => {} };
    }
    const dir = `${root}/${randomUUID()}`;
    const chat = variantChat(variant, { model, context: contextOf(contextName), dir });
    const { id } = await chat.createSession();
    await seedSession(chat.store, id, { turns: size, contextName });
    const session = await chat.openSession(id);
    return {
      turn: (i) => chatTurn(session, inputOf(i), model),
      dispose: async () => {
        await chat.deleteSession(id);
        if (variant.startsWith("file")) removeDir(dir);
      },
    };
  }

  /** One cell: every variant at one size and context, interleaved. */
  async function cell(contextName, size) {
    const sessions = {};
    for (const variant of VARIANTS) sessions[variant] = await prepare(variant, contextName, size);
    let next = size;
    for (const variant of VARIANTS) for (let i = 0; i < warmTurns; i++) await sessions[variant].turn(next + i);
    next += warmTurns;
    const samples = Object.fromEntries(VARIANTS.map((v) => [v, []]));
    for (let r = 0; r < rounds; r++) {
      for (const variant of VARIANTS) {
        for (let i = 0; i < turnsPerRound; i++) samples[variant].push(await measure(() => sessions[variant].turn(next + i)));
      }
      next += turnsPerRound;
    }
    for (const variant of VARIANTS) await sessions[variant].dispose();
    return samples;
  }

  log("warming up");
  for (const contextName of CONTEXTS) await cell(contextName, 10);

  const rows = [];
  for (const contextName of CONTEXTS) {
    for (const size of sizes) {
      const samples = await cell(contextName, size);
      const floor = median(samples.raw.map((s) => s.cpuMs));
      for (const variant of VARIANTS) {
        const cpuMs = median(samples[variant].map((s) => s.cpuMs));
        const wallMs = median(samples[variant].map((s) => s.wallMs));
        rows.push({ context: contextName, size, variant, cpuMs: round(cpuMs), wallMs: round(wallMs), cpuRatio: round(cpuMs / floor), cpuOverFloorMs: round(cpuMs - floor) });
      }
      log(`${contextName} at ${size} turns: ${VARIANTS.map((v) => `${v} ${round(median(samples[v].map((s) => s.cpuMs)))} ms`).join(", ")}`);
    }
  }
  return { sizes, rounds, turnsPerRound, warmTurns, rows };
});
