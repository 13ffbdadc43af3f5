/**
 * 7. Memory of one long session: the heap one session of many turns (1 KB inputs) holds when every turn goes
 * through `createChatHandler` (a `POST /sessions/:id/turns` each, its events read to the end), against the
 * same turns through one open session (the chat alone). Each variant runs in a fresh `--expose-gc` process;
 * the figure is `heapUsed` after gc over the empty session, per turn, at half the turns and at the end (equal
 * when the heap grows linearly), and the handler's ratio to the chat alone.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { tempDir } from "../lib/fixtures.mjs";
import { section } from "../lib/section.mjs";
import { jsonChild } from "../lib/spawn.mjs";
import { round } from "../lib/stats.mjs";

const child = fileURLToPath(new URL("../children/long-session-heap.mjs", import.meta.url));
const VARIANTS = ["chat", "handler"];

await section("memory", async ({ quick, log }) => {
  const turns = quick ? 100 : 1_000;
  const inputChars = 1_000;
  const root = tempDir();
  const runs = {};
  for (const variant of VARIANTS) {
    log(`${variant}: ${turns} turns of ${inputChars}-character inputs`);
    runs[variant] = await jsonChild(["--expose-gc", child, variant, join(root, variant), String(turns), String(inputChars)]);
  }
  const perTurn = (run, at) => (at === "half" ? run.halfBytes / Math.floor(turns / 2) : run.fullBytes / turns);
  const rows = VARIANTS.map((variant) => {
    const run = runs[variant];
    return {
      variant,
      halfBytesPerTurn: Math.round(perTurn(run, "half")),
      bytesPerTurn: Math.round(perTurn(run, "full")),
      heapMB: round(run.fullBytes / 1e6),
      rssMB: round(run.rssBytes / 1e6),
    };
  });
  const ratio = round(runs.handler.fullBytes / runs.chat.fullBytes);
  log(`handler / chat alone: ${ratio}×`);
  return { turns, inputChars, rows, ratio };
});
