/**
 * 2. Growth with history: the per-turn cost at history sizes 10 … 10,000 turns, for a model chat over
 * memoryStore and fileStore and for the one-step agent, with fullContext and recentTurns(20), against raw
 * `streamText` over the same messages at the same size. Every repetition seeds a fresh session through the
 * store's `append`, opens it and times a few turns one by one; figures are medians over all timed turns.
 */
import { randomUUID } from "node:crypto";
import { benchModel, chatTurn, contextOf, inputOf, rawTurn, removeDir, seedSession, tempDir, variantChat } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { measure, median, round } from "../lib/stats.mjs";

const VARIANTS = ["raw", "memory", "file-nosync", "agent"];
const CONTEXTS = ["fullContext", "recentTurns(20)"];

await section("growth", async ({ quick, log }) => {
  const sizes = quick ? [10, 1_000] : [10, 100, 1_000, 10_000];
  const reps = quick ? 2 : 5;
  const turnsPerRep = quick ? 3 : 5;
  const model = benchModel();
  const root = tempDir();

  /** One repetition of one variant at one size: seed, open, time `turnsPerRep` turns one by one. */
  async function repetition(variant, contextName, size) {
    const samples = [];
    if (variant === "raw") {
      const chat = variantChat("memory", { model, context: contextOf(contextName) });
      const { id } = await chat.createSession();
      const history = await seedSession(chat.store, id, { turns: size, contextName });
      const window = contextName === "fullContext" ? undefined : 20;
      // One untimed turn first (no forced GC: a forced full GC slows the next turns down for a while).
      await rawTurn(model, history, inputOf(size), { window });
      for (let i = 1; i <= turnsPerRep; i++) samples.push(await measure(() => rawTurn(model, history, inputOf(size + i), { window })));
      return samples;
    }
    const dir = `${root}/${randomUUID()}`;
    const chat = variantChat(variant, { model, context: contextOf(contextName), dir });
    const { id } = await chat.createSession();
    await seedSession(chat.store, id, { turns: size, contextName });
    const session = await chat.openSession(id);
    await chatTurn(session, inputOf(size), model);
    for (let i = 1; i <= turnsPerRep; i++) samples.push(await measure(() => chatTurn(session, inputOf(size + i), model)));
    await chat.deleteSession(id);
    if (variant.startsWith("file")) removeDir(dir);
    return samples;
  }

  log("warming up");
  for (let r = 0; r < (quick ? 2 : 4); r++) for (const variant of VARIANTS) for (const ctx of CONTEXTS) await repetition(variant, ctx, 10);

  const rows = [];
  for (const contextName of CONTEXTS) {
    for (const size of sizes) {
      const samples = Object.fromEntries(VARIANTS.map((v) => [v, []]));
      for (let r = 0; r < reps; r++) for (const variant of VARIANTS) samples[variant].push(...(await repetition(variant, contextName, size)));
      const floor = { cpuMs: median(samples.raw.map((s) => s.cpuMs)), wallMs: median(samples.raw.map((s) => s.wallMs)) };
      for (const variant of VARIANTS) {
        const cpuMs = median(samples[variant].map((s) => s.cpuMs));
        const wallMs = median(samples[variant].map((s) => s.wallMs));
        rows.push({
          context: contextName,
          size,
          variant,
          cpuMs: round(cpuMs),
          wallMs: round(wallMs),
          cpuRatio: round(cpuMs / floor.cpuMs),
          cpuOverFloorMs: round(cpuMs - floor.cpuMs),
        });
      }
      log(`${contextName} at ${size} turns: ${VARIANTS.map((v) => `${v} ${round(median(samples[v].map((s) => s.cpuMs)))} ms`).join(", ")}`);
    }
  }
  return { sizes, reps, turnsPerRep, rows };
});
