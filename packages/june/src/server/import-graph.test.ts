/**
 * The server's files import in one direction: no circle among them (issue 17: `HandlerContext` once closed a
 * five-file one). A small walker over the relative imports of `src/server` (type-only imports and
 * re-exports count too: a circle of types is still a circle to read), instead of a dependency.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) && !/\.e2e\./.test(entry.name)) files.push(path);
  }
  return files;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The files under `src/server` that `file` imports. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec?.startsWith(".")) continue;
    const base = resolve(dirname(file), spec).replace(/\.js$/, "");
    const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => known.has(candidate));
    if (target) out.push(target);
  }
  return out;
}

/** Every circle in the graph, each once, as the files around it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const seen = state.get(next);
      if (seen === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe("src/server's import graph", () => {
  const files = sourceFiles(root);
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
