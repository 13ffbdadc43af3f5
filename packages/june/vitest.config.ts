import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

// Tests and examples import `june` by name; point every entry at the source, not at dist/.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^june\/jsx-runtime$/, replacement: src("jsx/jsx-runtime.ts") },
      { find: /^june\/jsx-dev-runtime$/, replacement: src("jsx/jsx-dev-runtime.ts") },
      { find: /^june\/sdk\/(.*)$/, replacement: src("sdk/$1.ts") },
      { find: /^june\/(chat|server|studio|testing|learning|worker)$/, replacement: src("$1/index.ts") },
      { find: /^june\/store-kit$/, replacement: src("store-kit.ts") },
      { find: /^june\/stream$/, replacement: src("chat/stream/index.ts") },
      { find: /^june\/server\/redis$/, replacement: src("server/redis/index.ts") },
      { find: /^june$/, replacement: src("index.ts") },
    ],
  },
  oxc: {
    jsx: { runtime: "automatic", importSource: "june" },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.{ts,mjs}"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Always (with or without CI set) also write the counts as JSON, so .ci/run closes with a plain
    // "N passed, N failed" line on a fresh clone anywhere.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
