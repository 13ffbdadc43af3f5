/**
 * 11. Sub-workflow calls: what calling a workflow as a tool (`<Tool agent>`) costs a run next to an in-process
 * `<Tool>`. Each run is a one-step workflow whose scripted model calls `lookup` once and then answers. Variants:
 * (a) `<Tool value>` whose `execute` returns a string (the floor); (b) `<Tool agent>` whose sub-workflow is one
 * `run` step returning the same string (June's sub-workflow machinery alone: rendering, its trace nodes, its
 * step); (c) `<Tool agent>` whose sub-workflow is one model step (one more scripted model call). Variants
 * interleaved, medians over rounds.
 */
import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool, start } from "june";
import { jsx, jsxs } from "june/jsx-runtime";
import { scriptedModel } from "june/testing";
import { section } from "../lib/section.mjs";
import { interleave, measure, round } from "../lib/stats.mjs";

export const VARIANTS = [
  { key: "tool", label: "(a) <Tool value>, execute" },
  { key: "agent-run", label: "(b) <Tool agent>, one run step" },
  { key: "agent-model", label: "(c) <Tool agent>, one model step" },
];

const schema = jsonSchema({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
const lookup = tool({ description: "Looks up", inputSchema: schema, execute: async ({ q }) => `found ${q}` });

function model() {
  return scriptedModel((call) => (call.options.prompt.at(-1)?.role === "tool" ? "done" : { toolCalls: [{ toolName: "lookup", input: { q: "x" } }] }));
}

function workflow(kind) {
  const sub =
    kind === "agent-run"
      ? ({ q }) => jsx(Step, { id: "find", run: () => `found ${q}` })
      : ({ q }) => jsx(Agent, { model: scriptedModel(() => `found ${q}`), children: jsx(Step, { id: "find", prompt: q }) });
  const lookupTool = kind === "tool" ? jsx(Tool, { name: "lookup", value: lookup }) : jsx(Tool, { name: "lookup", description: "Looks up", inputSchema: schema, agent: sub });
  return jsxs(Agent, { model: model(), children: [lookupTool, jsx(Step, { id: "s", prompt: "go" })] });
}

await section("subagent", async ({ quick, log }) => {
  const rounds = quick ? 3 : 9;
  const runsPerRound = quick ? 10 : 50;
  const variant = (key) => ({
    name: key,
    async round() {
      const m = await measure(async () => {
        for (let i = 0; i < runsPerRound; i++) {
          const result = await start(workflow(key)).result;
          if (result.steps.s !== "done") throw new Error(`bench subagent: ${key} answered ${String(result.steps.s)}`);
        }
      });
      return { ...m, items: runsPerRound };
    },
  });
  log(`${rounds} rounds of ${runsPerRound} runs per variant (+1 warm-up round)`);
  const results = await interleave(VARIANTS.map(({ key }) => variant(key)), { rounds, warmupRounds: 1 });
  const floor = results.tool;
  return {
    rounds,
    runsPerRound,
    rows: VARIANTS.map(({ key, label }) => ({
      variant: key,
      label,
      cpuMs: round(results[key].cpuMs),
      wallMs: round(results[key].wallMs),
      cpuRatio: round(results[key].cpuMs / floor.cpuMs),
      wallRatio: round(results[key].wallMs / floor.wallMs),
      cpuOverFloorMs: round(results[key].cpuMs - floor.cpuMs),
    })),
  };
});
