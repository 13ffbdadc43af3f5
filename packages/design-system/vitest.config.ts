import { defineConfig } from "vitest/config";

// Component tests run in happy-dom; the visual check (*.browser.test.tsx) drives Debian's Chromium from Node.
export default defineConfig({
  oxc: {
    jsx: { runtime: "automatic", importSource: "react" },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "happy-dom",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Always write the counts as JSON too, which .ci/run adds up into its closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
