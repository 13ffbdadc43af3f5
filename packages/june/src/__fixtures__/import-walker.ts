/**
 * The small import walker the import tests share (`runtime/import-floors.test.ts`, `server/import-graph.test.ts`):
 * a folder's source files, the relative imports of one (type-only imports, re-exports and `import()` count too:
 * a circle of types is still a circle to read), the value imports of one (what loads when it loads:
 * `src/import-circles.test.ts`), and the circles of a graph of them. A regex, not a parser: June's sources keep
 * one import per statement.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The source files below `dir` (tests and e2e tests aside; `__fixtures__` folders too, unless `fixtures`). */
export function sourceFiles(dir: string, options: { fixtures?: boolean } = {}): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (options.fixtures || entry.name !== "__fixtures__") files.push(...sourceFiles(path, options));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) && !/\.e2e\./.test(entry.name)) files.push(path);
  }
  return files;
}

/** An import or export statement's specifier (group 1), a bare `import "x"` (2), an `import("x")` (3). */
export const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The relative imports of `file` that are source files in `known`. */
export function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec?.startsWith(".")) continue;
    const target = resolveImport(file, spec, known);
    if (target) out.push(target);
  }
  return out;
}

/** A static `import`/`export ... from` statement: its clause (group 1) and specifier (2); a bare `import "x"` (3). */
const STATIC = /(?:^|\n)\s*(?:import|export)\b([^;'"]*?)from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/**
 * The relative imports of `file` that load a module when it loads: static imports and re-exports, except
 * `import type`/`export type` and a `{ ... }` clause whose every name is `type`; `import()` is lazy and skipped.
 */
export function valueImportsOf(file: string, known: ReadonlySet<string>, text = readFileSync(file, "utf8")): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(STATIC)) {
    const clause = match[1];
    const spec = match[2] ?? match[3];
    if (!spec?.startsWith(".") || (clause !== undefined && typeOnly(clause))) continue;
    const target = resolveImport(file, spec, known);
    if (target) out.push(target);
  }
  return out;
}

function typeOnly(clause: string): boolean {
  const text = clause.trim();
  if (/^type\b/.test(text)) return true;
  const braces = /^\{([^}]*)\}$/.exec(text);
  if (!braces) return false;
  const names = braces[1]!.split(",").map((name) => name.trim()).filter((name) => name !== "");
  return names.length > 0 && names.every((name) => /^type\s/.test(name));
}

function resolveImport(file: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(file), spec).replace(/\.js$/, "");
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => known.has(candidate));
}

/** Every circle in the graph, each once, as the files around it. */
export function circles(graph: Map<string, string[]>): string[][] {
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
