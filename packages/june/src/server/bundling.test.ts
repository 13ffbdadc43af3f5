import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * What a bundler sees of `june/server` and `june/chat`: every module their imports reach (type-only
 * imports included, which is stricter than needed). They must reach only Node built-ins and the package's
 * own dependencies (never a peer such as a provider, never the CLI's tsx), and never `import.meta` (how
 * Studio finds its static files, which bundlers cannot follow). The Next.js build test is the full check.
 */
const src = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(src, "../package.json"), "utf8")) as { dependencies: Record<string, string> };

function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:import|export)\s[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const spec = match[1] ?? match[2];
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.add(spec);
    }
  };
  walk(join(src, entry));
  return { files: [...files], packages: [...packages] };
}

const packageName = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

describe("what june/server and june/chat import", () => {
  for (const entry of ["server/index.ts", "chat/index.ts"]) {
    it(`${entry} reaches Node built-ins and the package's dependencies only, and no import.meta`, () => {
      const { files, packages } = reach(entry);
      const outside = packages.filter((spec) => !spec.startsWith("node:") && !(packageName(spec) in pkg.dependencies));
      expect(outside).toEqual([]);
      expect(packages).not.toContain("tsx");
      expect(files.filter((file) => readFileSync(file, "utf8").includes("import.meta")).map((file) => file.slice(src.length))).toEqual([]);
      expect(files.some((file) => file.endsWith("serve-studio.ts"))).toBe(false);
    });
  }
});
