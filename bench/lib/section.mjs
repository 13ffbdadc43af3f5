/** The frame of one benchmark section, run in its own process by run.mjs: flags in, JSON figures out. */
import { writeFileSync } from "node:fs";

/** Parses `--quick` and `--result FILE`, runs `body({ quick, log })`, and writes its figures as JSON. */
export async function section(name, body) {
  const argv = process.argv.slice(2);
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--result");
  const resultFile = at === -1 ? undefined : argv[at + 1];
  const log = (message) => process.stderr.write(`  [${name}] ${message}\n`);
  const started = performance.now();
  const figures = await body({ quick, log });
  const json = JSON.stringify({ ...figures, seconds: Math.round((performance.now() - started) / 100) / 10 }, null, 2);
  if (resultFile) writeFileSync(resultFile, json);
  else process.stdout.write(`${json}\n`);
  // Timers and handles a benchmark left behind must not keep the section alive.
  process.exit(0);
}
