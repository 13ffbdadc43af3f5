import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * What a bundler sees of `june/server` and `june/chat`: every module their imports reach (type-only
 * imports included, which is stricter than needed). They must reach only Node built-ins, the package's own
 * dependencies and its required peers (`ai`, `@ai-sdk/provider`: the app's own AI SDK); an optional peer (a
 * provider, `@ai-sdk/mcp`) only as a type or through `import()` when it is used, never the CLI's tsx; and never
 * `import.meta` (how Studio finds its static files, which bundlers cannot follow) but in `createRequire(import.meta.url)`. The Next.js build test is the
 * full check.
 */
const src = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(src, "../package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const requiredPeers = Object.keys(pkg.peerDependencies).filter((name) => pkg.peerDependenciesMeta[name]?.optional !== true);

/** The files an entry reaches, and the packages it imports: `eager` by a static value import, `lazy` by a type or `import()`. */
function reach(entry: string): { files: string[]; eager: string[]; lazy: string[] } {
  const files = new Set<string>();
  const eager = new Set<string>();
  const lazy = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    // Imports in code only: a doc comment's example (`import { sqliteStore } from "june/chat"`) is not one.
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const match of text.matchAll(/(?:import|export)\s+(type\s+)?[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const spec = match[2] ?? match[3]!;
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else (match[1] !== undefined || match[3] !== undefined ? lazy : eager).add(spec);
    }
  };
  walk(join(src, entry));
  return { files: [...files], eager: [...eager], lazy: [...lazy].filter((spec) => !eager.has(spec)) };
}

const packageName = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
const allowed = (spec: string) => spec.startsWith("node:") || packageName(spec) in pkg.dependencies || requiredPeers.includes(packageName(spec));

describe("what june/server and june/chat import", () => {
  for (const entry of ["server/index.ts", "chat/index.ts"]) {
    it(`${entry} reaches Node built-ins, its dependencies and required peers (optional peers lazily), and no import.meta`, () => {
      const { files, eager, lazy } = reach(entry);
      expect(eager.filter((spec) => !allowed(spec))).toEqual([]);
      expect(lazy.filter((spec) => !allowed(spec) && !(packageName(spec) in pkg.peerDependencies))).toEqual([]);
      expect([...eager, ...lazy]).not.toContain("tsx");
      // `createRequire(import.meta.url)` (how a store loads its optional driver, and the tokenizer its data,
      // synchronously) is one bundlers follow: the Next.js build test builds it.
      const otherMeta = (file: string) => readFileSync(file, "utf8").replaceAll("createRequire(import.meta.url)", "").includes("import.meta");
      expect(files.filter(otherMeta).map((file) => file.slice(src.length))).toEqual([]);
      expect(files.some((file) => file.endsWith("serve-studio.ts"))).toBe(false);
    });
  }
});
