/**
 * 5. Start-up: `june ask` on the offline example (examples/offline.tsx, `--yes`), to the first byte on stdout and
 * to exit, against `node -e 0` and a bare script that calls `streamText` once with a scripted model. The
 * offline example waits on purpose (a 400 ms plan, a 600 ms tool, 45 ms per word), so `june ask` also runs on
 * the same shape with nothing to wait for (instant-chat.tsx and .mjs): that is the CLI's own start-up; and
 * on the bare script's own model in a model chat (instant-model-chat.mjs), the closest to the bare script.
 * A `.mjs` module that Node resolves alone loads with no module hooks (`cli/plain-module-graph.ts`). The CLI is
 * bundled with the library (`scripts/bundle.mjs`), and runs when imported: `june --help` is its cost.
 * Median of 10 runs each, interleaved, after one warm-up run each; then where start-up goes, one import at a time.
 * Then issue 29's cold-start check (item 4): `import("june/chat")` and one model-chat turn (june-model-turn.mjs)
 * against `import("ai")` and one raw `streamText` turn (ai-sdk-turn.mjs), on one model written out (words-model.mjs),
 * each over `node -e 0`: wall to exit and the process's CPU (reported at exit), interleaved, 3× the runs.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { timeProcess } from "../lib/spawn.mjs";
import { median, round } from "../lib/stats.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const juneBin = here("../../packages/june/bin/june.js");
const offline = here("../../examples/offline.tsx");
const cliBuilt = here("../../packages/june/dist/cli/bin.js");

await section("startup", async ({ quick, log }) => {
  const runs = quick ? 1 : 10;
  const warmups = quick ? 0 : 1;
  const cwd = tempDir();
  const node = process.execPath;
  const variants = [
    { key: "node", label: "node -e 0", args: ["-e", "0"] },
    { key: "bare", label: "node: bare streamText script", args: [here("../children/bare-stream.mjs")] },
  ];
  const cliReady = existsSync(cliBuilt);
  if (cliReady) {
    variants.push(
      { key: "help", label: "june --help", args: [juneBin, "--help"] },
      { key: "ask-model-mjs", label: "june ask instant-model-chat.mjs", args: [juneBin, "ask", here("../children/instant-model-chat.mjs"), "Hello there"] },
      { key: "ask-instant-mjs", label: "june ask instant-chat.mjs", args: [juneBin, "ask", here("../children/instant-chat.mjs"), "--deny", "Hello there"] },
      { key: "ask-instant-tsx", label: "june ask instant-chat.tsx", args: [juneBin, "ask", here("../children/instant-chat.tsx"), "--deny", "Hello there"] },
    );
    if (existsSync(offline)) {
      variants.push({ key: "ask-offline", label: "june ask examples/offline.tsx --yes", args: [juneBin, "ask", offline, "--yes", "Deploy the docs to staging"] });
    } else log("examples/offline.tsx is missing: skipped");
  } else log("the CLI is not built (packages/june/dist/cli/bin.js): june ask skipped");

  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  log(`${runs} runs of ${variants.length} commands (+${warmups} warm-up each)`);
  for (let r = 0; r < runs + warmups; r++) {
    for (const variant of variants) {
      const result = await timeProcess(node, variant.args, { cwd });
      if (variant.key.startsWith("ask") && result.stdout.trim().length === 0) {
        throw new Error(`bench: ${variant.label} printed no reply: ${result.stderr.trim().slice(-400)}`);
      }
      if (r >= warmups) samples[variant.key].push(result);
    }
  }
  // Where start-up goes: each import alone in a fresh process.
  const imports = ["ai", "june", "june/chat", "june/testing", "tsx/esm/api", "june/server", "june/sdk/openai", "june/sdk/anthropic", "june/sdk/google"];
  const importSamples = Object.fromEntries(imports.map((s) => [s, []]));
  log(`${runs} fresh imports of ${imports.length} modules`);
  for (let r = 0; r < runs; r++) {
    for (const specifier of imports) {
      const { stdout } = await timeProcess(node, [here("../children/import-cost.mjs"), specifier], { cwd });
      importSamples[specifier].push(JSON.parse(stdout).importMs);
    }
  }
  const importRows = imports
    .filter((s) => importSamples[s].length > 0)
    .map((s) => ({ module: s, importMs: round(median(importSamples[s])) }));

  // Issue 29, item 4: (June's import + turn − node) ÷ (the AI SDK's import + turn − node), goal ≤ 1.15.
  const cpuAtExit = `data:text/javascript,${encodeURIComponent(
    'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write(`\\n@@cpu ${u.user + u.system}\\n`); });',
  )}`;
  const coldVariants = { node: ["-e", "0"], ai: [here("../children/ai-sdk-turn.mjs")], june: [here("../children/june-model-turn.mjs")] };
  const cold = { node: [], ai: [], june: [] };
  const coldRuns = quick ? 1 : runs * 3;
  log(`${coldRuns} runs of the cold-start check (+${warmups} warm-up)`);
  for (let r = 0; r < coldRuns + warmups; r++) {
    for (const [key, args] of Object.entries(coldVariants)) {
      const result = await timeProcess(node, ["--import", cpuAtExit, ...args], { cwd });
      const cpu = /@@cpu (\d+)/.exec(result.stderr);
      if (!cpu || (key !== "node" && result.stdout.trim() === "")) throw new Error(`bench: cold start ${key}: no reply or no CPU figure: ${result.stderr.slice(-400)}`);
      if (r >= warmups) cold[key].push({ wallMs: result.exitMs, cpuMs: Number(cpu[1]) / 1000 });
    }
  }
  const coldMedian = (key, field) => median(cold[key].map((s) => s[field]));
  const overNode = (key, field) => coldMedian(key, field) - coldMedian("node", field);
  // Each round's own ratio (its three processes ran back to back): the spread.
  const roundRatios = (field) => cold.june.map((s, i) => (s[field] - cold.node[i][field]) / (cold.ai[i][field] - cold.node[i][field])).sort((a, b) => a - b);
  const quartiles = (list) => [list[Math.floor((list.length - 1) / 4)], list[Math.ceil(((list.length - 1) * 3) / 4)]].map((value) => round(value));
  const coldStart = {
    runs: coldRuns,
    nodeWallMs: round(coldMedian("node", "wallMs")),
    aiOverNodeWallMs: round(overNode("ai", "wallMs")),
    juneOverNodeWallMs: round(overNode("june", "wallMs")),
    ratioWall: round(overNode("june", "wallMs") / overNode("ai", "wallMs")),
    ratioWallQuartiles: quartiles(roundRatios("wallMs")),
    aiOverNodeCpuMs: round(overNode("ai", "cpuMs")),
    juneOverNodeCpuMs: round(overNode("june", "cpuMs")),
    ratioCpu: round(overNode("june", "cpuMs") / overNode("ai", "cpuMs")),
    ratioCpuQuartiles: quartiles(roundRatios("cpuMs")),
    goal: 1.15,
  };
  log(
    `cold start (item 4): June ${coldStart.juneOverNodeWallMs} ms over node, the AI SDK ${coldStart.aiOverNodeWallMs} ms: ${coldStart.ratioWall}× wall ` +
      `(rounds' quartiles ${coldStart.ratioWallQuartiles.join("–")}), ${coldStart.ratioCpu}× CPU (${coldStart.ratioCpuQuartiles.join("–")}); goal ≤ 1.15×`,
  );

  const base = median(samples.node.map((s) => s.exitMs));
  const bare = median(samples.bare.map((s) => s.exitMs));
  return {
    runs,
    imports: importRows,
    coldStart,
    rows: variants.map(({ key, label }) => {
      const firstByte = samples[key].every((s) => s.firstByteMs !== undefined) ? median(samples[key].map((s) => s.firstByteMs)) : null;
      const exit = median(samples[key].map((s) => s.exitMs));
      return {
        variant: key,
        label,
        firstByteMs: firstByte === null ? null : round(firstByte),
        exitMs: round(exit),
        exitOverNodeMs: round(exit - base),
        exitRatioToBare: round(exit / bare),
      };
    }),
  };
});
