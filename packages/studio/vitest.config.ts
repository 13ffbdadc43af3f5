import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const june = (path: string) => fileURLToPath(new URL(`../june/src/${path}`, import.meta.url));

// Studio's state is tested in Node against a real June handler: `june` imports resolve to its source, as
// in june's own tests, so a change there is tested here without a build.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^june\/jsx-runtime$/, replacement: june("jsx/jsx-runtime.ts") },
      { find: /^june\/(chat|server|testing)$/, replacement: june("$1/index.ts") },
      { find: /^june\/stream$/, replacement: june("chat/stream/index.ts") },
      { find: /^june$/, replacement: june("index.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    // Always write the counts as JSON too, which .ci/run adds up into its closing "N passed, N failed" line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
