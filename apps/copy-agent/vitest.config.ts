import { defineConfig } from "vitest/config";

// The server side's JSX is June's (workflows); the UI is built by Vite (vite.config.ts), never imported here.
export default defineConfig({
  oxc: {
    jsx: { runtime: "automatic", importSource: "june" },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Always write the counts as JSON too, which .ci/run adds up into its closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
