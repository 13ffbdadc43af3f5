/**
 * 1. Turn overhead: the same scripted model (60 text deltas, no delay) driven by a raw `streamText` call over a
 * message array (the floor), by a model chat over memoryStore, over fileStore (fsync on and off), and by an
 * agentResponder with a one-step workflow. Fresh session per round, variants interleaved, medians over rounds.
 * A second raw `streamText` variant (A/A) runs interleaved like the others: its ratio to the floor is the run's
 * noise. Every row also says how its per-round ratio spread and a 95 % interval for its median ratio
 * (`ratioSpread`). `--rounds N` sets the rounds (`npm run bench -- --only turn --rounds 40`).
 */
import { benchModel, chatTurn, inputOf, rawTurn, tempDir, variantChat } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { interleave, measure, ratioSpread, round } from "../lib/stats.mjs";

export const VARIANTS = [
  { key: "raw", label: "(a) raw streamText" },
  // The same floor again, interleaved like the rest: its ratio to (a) is this run's noise (A/A).
  { key: "raw-aa", label: "(a) again, A/A: the run's noise" },
  { key: "memory", label: "(b) createChat + memoryStore" },
  // The cost of costing: the same turn with a model the catalog prices (OpenAI's gpt-4o-mini), so each call is priced.
  { key: "memory-priced", label: "(b) … model priced from the catalog" },
  { key: "file", label: "(c) createChat + fileStore, fsync on" },
  { key: "file-nosync", label: "(c) createChat + fileStore, fsync off" },
  { key: "agent", label: "(d) agentResponder, one step" },
];

await section("turn", async ({ quick, log }) => {
  const at = process.argv.indexOf("--rounds");
  const rounds = at !== -1 ? Number(process.argv[at + 1]) : quick ? 3 : 15;
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`bench: --rounds must be a positive integer`);
  const turnsPerRound = quick ? 8 : 20;
  const model = benchModel();
  const pricedModel = benchModel({ provider: "openai.chat", modelId: "gpt-4o-mini" });
  const dir = tempDir();
  const variants = VARIANTS.map(({ key }) => {
    if (key === "raw" || key === "raw-aa") {
      return {
        name: key,
        async round() {
          const history = [];
          const m = await measure(async () => {
            for (let i = 0; i < turnsPerRound; i++) await rawTurn(model, history, inputOf(i));
          });
          return { ...m, items: turnsPerRound };
        },
      };
    }
    const chat =
      key === "memory-priced"
        ? variantChat("memory", { model: pricedModel, dir: `${dir}/${key}` })
        : variantChat(key, { model, dir: `${dir}/${key}` });
    const turnModel = key === "memory-priced" ? pricedModel : model;
    return {
      name: key,
      async round() {
        const session = await chat.createSession();
        const m = await measure(async () => {
          for (let i = 0; i < turnsPerRound; i++) await chatTurn(session, inputOf(i), turnModel);
        });
        return { ...m, items: turnsPerRound };
      },
    };
  });
  log(`${rounds} rounds of ${turnsPerRound} turns per variant (+2 warm-up rounds)`);
  const results = await interleave(variants, { rounds, warmupRounds: 2 });
  const floor = results.raw;
  return {
    turnsPerRound,
    rounds,
    deltas: 60,
    rows: VARIANTS.map(({ key, label }) => {
      const spread = ratioSpread(results[key].cpuSamples, floor.cpuSamples);
      return {
        variant: key,
        label,
        cpuMs: round(results[key].cpuMs),
        wallMs: round(results[key].wallMs),
        cpuRatio: round(results[key].cpuMs / floor.cpuMs),
        wallRatio: round(results[key].wallMs / floor.wallMs),
        cpuOverFloorMs: round(results[key].cpuMs - floor.cpuMs),
        // The CPU ratio round by round (to (a) in the same round): quartiles, and a 95 % interval of its median.
        cpuRatioPerRound: { median: round(spread.median), q1: round(spread.q1), q3: round(spread.q3), ci95: spread.ci95.map((v) => round(v)) },
      };
    }),
  };
});
