import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "june-ci-summary-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const summary = (report) => execFileSync(process.execPath, [join(here, "test-summary.mjs"), report], { encoding: "utf8" });

describe(".ci/run's closing line", () => {
  it("the vitest config writes the JSON report with and without CI", async () => {
    const saved = process.env.CI;
    try {
      for (const ci of [undefined, "true"]) {
        if (ci === undefined) delete process.env.CI;
        else process.env.CI = ci;
        vi.resetModules();
        const { default: config } = await import("../vitest.config.ts");
        const reporters = config.test.reporters.map((r) => (Array.isArray(r) ? r : [r]));
        expect(reporters.find(([name]) => name === "json")?.[1], `CI=${ci}`).toEqual({ outputFile: "test-results/vitest.json" });
      }
    } finally {
      if (saved === undefined) delete process.env.CI;
      else process.env.CI = saved;
    }
  });

  it("prints the counts from the report, and a plain line (exit 0) when there is none", () => {
    const report = join(tmp, "vitest.json");
    writeFileSync(report, JSON.stringify({ numPassedTests: 7, numFailedTests: 1, numPendingTests: 2 }));
    expect(summary(report)).toBe("vitest: 7 passed, 1 failed, 2 skipped\n");
    expect(summary(join(tmp, "missing.json"))).toMatch(/^vitest: no JSON report at .*missing\.json/);
  });

  it("adds up the counts of every workspace's report", () => {
    const a = join(tmp, "a.json");
    const b = join(tmp, "b.json");
    writeFileSync(a, JSON.stringify({ numPassedTests: 7, numFailedTests: 1, numPendingTests: 2 }));
    writeFileSync(b, JSON.stringify({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 0 }));
    const out = execFileSync(process.execPath, [join(here, "test-summary.mjs"), a, b], { encoding: "utf8" });
    expect(out).toBe("vitest: 10 passed, 1 failed, 2 skipped\n");
  });

  it(".ci/run removes a stale report before the tests and closes with the script", () => {
    const run = execFileSync("cat", [join(here, "..", "..", "..", ".ci", "run")], { encoding: "utf8" });
    const reports = run.match(/^reports="([^"]*)"$/m)?.[1].split(" ");
    expect(reports).toEqual(expect.arrayContaining(["packages/june/test-results/vitest.json", "packages/design-system/test-results/vitest.json"]));
    expect(run).toMatch(/rm -f \$reports\n(.*\n)*npm test/);
    expect(run).toMatch(/node packages\/june\/scripts\/test-summary\.mjs \$reports/);
    expect(run).not.toMatch(/require\("\.\/packages\/june\/test-results\/vitest\.json"\)/);
  });
});
