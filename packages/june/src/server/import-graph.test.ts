/**
 * The server's files import in one direction: no circle among them (issue 17: `HandlerContext` once closed a
 * five-file one). A small walker over the relative imports of `src/server` (type-only imports and
 * re-exports count too: a circle of types is still a circle to read), instead of a dependency.
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, importsOf, sourceFiles } from "../__fixtures__/import-walker.js";

const root = dirname(fileURLToPath(import.meta.url));

describe("src/server's import graph", () => {
  const files = sourceFiles(root, { fixtures: true });
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

  it("reads the imports (the walker sees the handler's route groups)", () => {
    const handler = graph.get(join(root, "create-chat-handler.ts"))!.map((file) => relative(root, file));
    expect(handler).toEqual(expect.arrayContaining(["handler-context.ts", "session-routes.ts", "turn-routes.ts", "ui-chat.ts"]));
    expect(files.length).toBeGreaterThan(20);
  });

  it("has no circle", () => {
    const named = circles(graph).map((circle) => circle.map((file) => relative(root, file)).join(" -> "));
    expect(named).toEqual([]);
  });

  it("finds a circle when there is one (the check can fail)", () => {
    const a = join(root, "a.ts");
    const b = join(root, "b.ts");
    expect(circles(new Map([[a, [b]], [b, [a]]]))).toEqual([[a, b, a]]);
  });
});
