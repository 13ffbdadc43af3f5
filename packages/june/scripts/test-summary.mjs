// Prints the closing line of `bash .ci/run`: the test counts added up from the vitest JSON reports of the
// workspaces that run vitest (each config always writes one, with or without CI set). A run that ended
// before writing a report says so instead of failing on a missing file, so the test command's own exit
// status is what decides.
// argv: [report path ...] (default: test-results/vitest.json beside this package)
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const reports = process.argv.slice(2);
if (reports.length === 0) reports.push(join(dirname(fileURLToPath(import.meta.url)), "..", "test-results", "vitest.json"));
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const report of reports) {
  if (!existsSync(report)) {
    console.log(`vitest: no JSON report at ${report} (the test run ended before writing it)`);
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests;
}
console.log(`vitest: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
