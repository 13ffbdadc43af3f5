/**
 * 1b. The turn on both platforms June supports, in one run: Node 20 with this repository's `ai@6`, and Node 24
 * with June packed (`npm pack`) and installed beside `ai@7` in an app of its own (the path the pack test takes:
 * `src/ai-sdk/pack.e2e.test.ts`). Each platform runs `children/platform-turn.mjs` in a process of its own:
 * raw `streamText` (the floor, and the A/A row), the AI SDK's chat pattern, June's model chat over memoryStore
 * and fileStore, and the one-step agent turn, rounds interleaved; ratios are to that platform's floor.
 *
 * The app is kept in the system's temporary folder (`june-bench-ai7/`) so its packages install once (npm's
 * cache after that); June's tarball is packed and installed again on every run, so it is always this build.
 * Node 24 is this Node when it is 22 or later, else $JUNE_BENCH_NODE24, else the one bench/peers installs.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { node22 } from "../peers/install.mjs";

/** The app's `ai`, pinned: AI SDK 7's line as `ci/ai7/package.json` pins it. */
export const AI7 = "7.0.173";

const child = fileURLToPath(new URL("../children/platform-turn.mjs", import.meta.url));
const stats = new URL("../lib/stats.mjs", import.meta.url).href;
const packageDir = fileURLToPath(new URL("../../packages/june", import.meta.url));

function run(node, script, rounds, turns, log) {
  const out = spawnSync(node, [script, stats, String(rounds), String(turns), tempDir()], { encoding: "utf8", timeout: 1_800_000, maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`bench: ${script} under ${node} failed (exit ${out.status}): ${out.stderr}`);
  const figures = JSON.parse(out.stdout.trim().split("\n").at(-1));
  log(`${figures.node}, ai ${figures.ai}: done`);
  return figures;
}

/** The app with this build of June installed beside `ai@7`; its copy of the child script. */
function ai7App(log) {
  const app = join(tmpdir(), "june-bench-ai7");
  mkdirSync(app, { recursive: true });
  for (const name of readdirSync(app)) if (name.endsWith(".tgz")) rmSync(join(app, name));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const packed = spawnSync(npm, ["pack", "--pack-destination", app], { cwd: packageDir, encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`bench: npm pack failed: ${packed.stderr}`);
  const tarball = readdirSync(app).find((name) => name.endsWith(".tgz"));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "june-bench-ai7", private: true, type: "module", dependencies: { june: `file:./${tarball}`, ai: AI7 } }, null, 2));
  // The tarball's name does not change between builds: drop the installed copy and the lockfile (which holds
  // the last tarball's integrity, so npm would install that one from its cache) so npm installs this one.
  rmSync(join(app, "node_modules", "june"), { recursive: true, force: true });
  rmSync(join(app, "package-lock.json"), { force: true });
  log(`installing June (${tarball}) beside ai@${AI7} in ${app}`);
  const installed = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: app, encoding: "utf8", timeout: 600_000 });
  if (installed.status !== 0) throw new Error(`bench: npm install in ${app} failed: ${installed.stderr}`);
  const script = join(app, "platform-turn.mjs");
  copyFileSync(child, script);
  return script;
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
      platforms.push(run(modern, ai7App(log), rounds, turns, log));
    } catch (error) {
      platforms.push({ skipped: error instanceof Error ? error.message.slice(0, 400) : String(error) });
    }
  }
  return { rounds, turnsPerRound: turns, deltas: 60, platforms };
});
