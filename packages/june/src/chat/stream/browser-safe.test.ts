import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** Every module `june/stream` reaches at run time, and every package it imports (type-only imports are erased). */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(/(?:import|export)\s(?!type\s)[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const spec = match[1] ?? match[2];
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.add(spec);
    }
  };
  walk(entry);
  return { files: [...files], packages: [...packages] };
}

describe("june/stream", () => {
  it("reaches no package and no Node built-in: Studio's bundle runs its schema in the browser", () => {
    const { files, packages } = reach(join(dirname(fileURLToPath(import.meta.url)), "index.ts"));
    expect(packages).toEqual([]);
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toMatch(/\bprocess\.|\bBuffer\b|import\.meta/);
  });

  // The build bundles the library (scripts/bundle.mjs): what a page loads is the built entry and its chunks, which
  // must not carry the chat's Node modules along (the test command builds first; without a build, nothing to read).
  const built = join(dirname(fileURLToPath(import.meta.url)), "../../../dist/chat/stream/index.js");
  it.skipIf(!existsSync(built))("its built entry and the chunks it loads import no package and no Node built-in", () => {
    const files = new Set<string>();
    const packages = new Set<string>();
    const walk = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      for (const match of readFileSync(file, "utf8").matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
        if (match[1].startsWith(".")) walk(resolve(dirname(file), match[1]));
        else packages.add(match[1]);
      }
    };
    walk(built);
    expect([...packages], [...files].join(", ")).toEqual([]);
    expect(files.size).toBeLessThan(12);
  });
});
