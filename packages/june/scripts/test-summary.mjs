// Prints the closing line of `bash .ci/run`: the test counts from vitest's JSON report, which the vitest
// config always writes (with or without CI set). A run that ended before writing it says so instead of
// failing on a missing file, so the test command's own exit status is what decides.
// argv: [report path] (default: test-results/vitest.json beside this package)
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const report = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "test-results", "vitest.json");
if (!existsSync(report)) {
  console.log(`vitest: no JSON report at ${report} (the test run ended before writing it)`);
} else {
  const r = JSON.parse(readFileSync(report, "utf8"));
  console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
}
