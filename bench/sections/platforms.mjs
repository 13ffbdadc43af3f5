/**
 * 1b. The turn on both platforms June supports, in one run: Node 20 with this repository's `ai@6`, and Node 24
 * with June packed (`npm pack`) and installed beside `ai@7` in an app of its own (the path the pack test takes:
 * `src/ai-sdk/pack.e2e.test.ts`). Each platform runs `children/platform-turn.mjs` in a process of its own:
 * raw `streamText` (the floor, and the A/A row), the AI SDK's chat pattern, June's model chat over memoryStore
 * and fileStore, and the one-step agent turn, rounds interleaved; ratios are to that platform's floor.
 * The app: bench/lib/ai7-app.mjs.
 * Node 24 is this Node when it is 22 or later, else $JUNE_BENCH_NODE24, else the one bench/peers installs.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { node22 } from "../peers/install.mjs";
import { ai7App } from "../lib/ai7-app.mjs";

const child = fileURLToPath(new URL("../children/platform-turn.mjs", import.meta.url));
const stats = new URL("../lib/stats.mjs", import.meta.url).href;

function run(node, script, rounds, turns, log) {
  const out = spawnSync(node, [script, stats, String(rounds), String(turns), tempDir()], { encoding: "utf8", timeout: 1_800_000, maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`bench: ${script} under ${node} failed (exit ${out.status}): ${out.stderr}`);
  const figures = JSON.parse(out.stdout.trim().split("\n").at(-1));
  log(`${figures.node}, ai ${figures.ai}: done`);
  return figures;
}

await section("platforms", async ({ quick, log }) => {
  const at = process.argv.indexOf("--rounds");
  const rounds = at !== -1 ? Number(process.argv[at + 1]) : quick ? 3 : 15;
  const turns = quick ? 8 : 20;
  const platforms = [];
  log(`${rounds} rounds of ${turns} turns per variant and platform (+2 warm-up rounds)`);
  platforms.push(run(process.execPath, child, rounds, turns, log));
  const modern = node22();
  if (modern === undefined || !existsSync(modern)) {
    platforms.push({ skipped: "no Node 22 or later: set JUNE_BENCH_NODE24, or run the peers once (npm ci --prefix bench/peers)" });
  } else {
    try {
      platforms.push(run(modern, join(ai7App(log, [child]), "platform-turn.mjs"), rounds, turns, log));
    } catch (error) {
      platforms.push({ skipped: error instanceof Error ? error.message.slice(0, 400) : String(error) });
    }
  }
  return { rounds, turnsPerRound: turns, deltas: 60, platforms };
});
