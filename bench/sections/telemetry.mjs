/**
 * 7. Telemetry: what OpenTelemetry spans cost per turn. The same 60-delta turn as section 1, for a model chat
 * and a one-step agent chat over memoryStore, with `telemetry: false` (no OTel call at all: the floor), left
 * out with no tracer provider registered (the default: one no-op span per turn), on (an SDK tracer that
 * records every span, with a processor that drops them, so the figure is June's work plus the SDK's span
 * objects, not an exporter's), and on with `recordInputs` / `recordOutputs`. Variants interleaved. Then the
 * no-op path alone, where a turn's figure cannot resolve it: runs of an empty workflow (`start([])`), whose
 * only work is the run's bookkeeping, with `telemetry: false`, left out (no provider) and on.
 */
import { BasicTracerProvider, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { start } from "june";
import { createChat, memoryStore } from "june/chat";
import { benchAgent, benchModel, chatTurn, inputOf } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

export const MODES = [
  { key: "off", label: "telemetry: false" },
  { key: "default", label: "left out, no provider registered" },
  { key: "on", label: "on (SDK tracer, spans recorded)" },
  { key: "content", label: "on + recordInputs/recordOutputs" },
];

await section("telemetry", async ({ quick, log }) => {
  const rounds = quick ? 3 : 15;
  const turnsPerRound = quick ? 8 : 20;
  const model = benchModel();
  // Not registered globally: the "default" mode must see no provider.
  const provider = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] });
  const tracer = provider.getTracer("june-bench");
  const telemetryOf = (mode) =>
    ({ off: false, default: undefined, on: { tracer }, content: { tracer, recordInputs: true, recordOutputs: true } })[mode];
  const variants = [];
  for (const responder of ["model", "agent"]) {
    for (const { key } of MODES) {
      const telemetry = telemetryOf(key);
      const base = responder === "model" ? { model } : { responder: benchAgent(model) };
      const chat = createChat({ ...base, store: memoryStore(), ...(telemetry !== undefined ? { telemetry } : {}) });
      variants.push({
        name: `${responder}-${key}`,
        async round() {
          const session = await chat.createSession();
          const m = await measure(async () => {
            for (let i = 0; i < turnsPerRound; i++) await chatTurn(session, inputOf(i), model);
          });
          return { ...m, items: turnsPerRound };
        },
      });
    }
  }
  log(`${rounds} rounds of ${turnsPerRound} turns per variant (+2 warm-up rounds)`);
  const results = await interleave(variants, { rounds, warmupRounds: 2 });
  const rows = [];
  for (const responder of ["model", "agent"]) {
    const floor = results[`${responder}-off`];
    for (const { key, label } of MODES) {
      const r = results[`${responder}-${key}`];
      rows.push({
        responder,
        mode: key,
        label,
        cpuMs: round(r.cpuMs),
        wallMs: round(r.wallMs),
        cpuRatio: round(r.cpuMs / floor.cpuMs),
        wallRatio: round(r.wallMs / floor.wallMs),
        cpuOverOffMs: round(r.cpuMs - floor.cpuMs),
      });
    }
  }
  const runsPerRound = quick ? 500 : 5_000;
  const runVariants = ["off", "default", "on"].map((key) => {
    const telemetry = telemetryOf(key);
    const options = telemetry !== undefined ? { telemetry } : {};
    return {
      name: key,
      async round() {
        const m = await measure(async () => {
          for (let i = 0; i < runsPerRound; i++) await start([], options).result;
        });
        return { ...m, items: runsPerRound };
      },
    };
  });
  log(`${rounds} rounds of ${runsPerRound} empty runs per variant`);
  const runResults = await interleave(runVariants, { rounds, warmupRounds: 2 });
  const emptyRuns = ["off", "default", "on"].map((key) => ({
    mode: key,
    label: MODES.find((mode) => mode.key === key).label,
    cpuUs: round(runResults[key].cpuMs * 1000),
    cpuOverOffUs: round((runResults[key].cpuMs - runResults.off.cpuMs) * 1000),
    cpuRatio: round(runResults[key].cpuMs / runResults.off.cpuMs),
  }));
  await provider.shutdown();
  return { turnsPerRound, rounds, deltas: 60, rows, runsPerRound, emptyRuns };
});
