/**
 * No value circle in `src` (issue 36): following the imports that run when a module loads (static imports and
 * re-exports; `import type` and lazy `import()` skipped, as madge does), no module reaches itself. A circle of
 * values makes load order matter: a module can read a binding of one still loading.
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, sourceFiles, valueImportsOf } from "./__fixtures__/import-walker.js";

const src = dirname(fileURLToPath(import.meta.url));

describe("src's value imports", () => {
  const files = sourceFiles(src);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, valueImportsOf(file, known)]));

  it("reads the imports (the walker sees the chat's entry reach the runtime's start)", () => {
    expect(files.length).toBeGreaterThan(200);
    expect(graph.get(join(src, "index.ts"))!.map((file) => relative(src, file))).toContain(join("runtime", "start.ts"));
  });

  it("has no circle", () => {
    expect(circles(graph).map((circle) => circle.map((file) => relative(src, file)).join(" -> "))).toEqual([]);
  });

  it("skips type-only and lazy imports, and finds a circle when there is one (the check can fail)", () => {
    const a = join(src, "a.ts");
    const b = join(src, "b.ts");
    const known = new Set([a, b]);
    const text = [
      'import type { B } from "./b.js";',
      'export type { B } from "./b.js";',
      'import { type B, type C } from "./b.js";',
      'const b = () => import("./b.js");',
    ].join("\n");
    expect(valueImportsOf(a, known, text)).toEqual([]);
    expect(valueImportsOf(a, known, 'import { type B, c } from "./b.js";')).toEqual([b]);
    expect(valueImportsOf(a, known, 'export { c } from "./b.js";\nimport "./b.js";')).toEqual([b, b]);
    expect(circles(new Map([[a, valueImportsOf(a, known, 'import { b } from "./b.js";')], [b, valueImportsOf(b, known, 'import { a } from "./a.js";')]]))).toEqual([[a, b, a]]);
  });
});
