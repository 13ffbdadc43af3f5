/**
 * 5. Start-up: `june ask` on the offline example (examples/offline.tsx, `--yes`), to the first byte on stdout and
 * to exit, against `node -e 0` and a bare script that calls `streamText` once with a scripted model. The
 * offline example waits on purpose (a 400 ms plan, a 600 ms tool, 45 ms per word), so `june ask` also runs on
 * the same shape with nothing to wait for (instant-chat.tsx and .mjs): that is the CLI's own start-up.
 * Median of 10 runs each, interleaved, after one warm-up run each.
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
  const runs = quick ? 2 : 10;
  const cwd = tempDir();
  const node = process.execPath;
  const variants = [
    { key: "node", label: "node -e 0", args: ["-e", "0"] },
    { key: "import", label: "node: import june/chat", args: [here("../children/import-chat.mjs")] },
    { key: "bare", label: "node: bare streamText script", args: [here("../children/bare-stream.mjs")] },
  ];
  const cliReady = existsSync(cliBuilt);
  if (cliReady) {
    variants.push(
      { key: "ask-instant-mjs", label: "june ask instant-chat.mjs", args: [juneBin, "ask", here("../children/instant-chat.mjs"), "--deny", "Hello there"] },
      { key: "ask-instant-tsx", label: "june ask instant-chat.tsx", args: [juneBin, "ask", here("../children/instant-chat.tsx"), "--deny", "Hello there"] },
    );
    if (existsSync(offline)) {
      variants.push({ key: "ask-offline", label: "june ask examples/offline.tsx --yes", args: [juneBin, "ask", offline, "--yes", "Deploy the docs to staging"] });
    } else log("examples/offline.tsx is missing: skipped");
  } else log("the CLI is not built (packages/june/dist/cli/bin.js): june ask skipped");

  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  log(`${runs} runs of ${variants.length} commands (+1 warm-up each)`);
  for (let r = 0; r < runs + 1; r++) {
    for (const variant of variants) {
      const result = await timeProcess(node, variant.args, { cwd });
      if (variant.key.startsWith("ask") && result.stdout.trim().length === 0) {
        throw new Error(`bench: ${variant.label} printed no reply: ${result.stderr.trim().slice(-400)}`);
      }
      if (r > 0) samples[variant.key].push(result);
    }
  }
  const base = median(samples.node.map((s) => s.exitMs));
  const bare = median(samples.bare.map((s) => s.exitMs));
  return {
    runs,
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
