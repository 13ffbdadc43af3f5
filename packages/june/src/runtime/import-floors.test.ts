/**
 * The runtime is the lowest floor a model call goes through: it imports nothing from the layers built on it
 * (`chat/`, `server/`, `cli/`, `studio/`), and one module calls the AI SDK's `streamText`: the AI SDK version
 * adapter's (`ai-sdk/stream-model.ts`), the model engine's one way to a model. The same small walker as `server/import-graph.test.ts` (type-only imports
 * and re-exports count too).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const runtime = dirname(fileURLToPath(import.meta.url));
const src = dirname(runtime);
const ABOVE = ["chat", "server", "cli", "studio"];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__fixtures__") files.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) && !/\.e2e\./.test(entry.name)) files.push(path);
  }
  return files;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The imports of `text` (a file at `file`) that reach a folder of `src` above the runtime, as `src`-relative paths. */
function upwardImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec?.startsWith(".")) continue;
    const target = relative(src, resolve(dirname(file), spec));
    if (ABOVE.includes(target.split(sep)[0]!)) out.push(`${relative(src, file)} -> ${target}`);
  }
  return out;
}

/** The source files of `src` that call `streamText(`. */
function streamTextCallers(): string[] {
  return sourceFiles(src)
    .filter((file) => /\bstreamText\(/.test(readFileSync(file, "utf8").replace(/^\s*(\/\/|\*).*$/gm, "")))
    .map((file) => relative(src, file));
}

describe("the runtime's floor", () => {
  it("imports nothing from chat/, server/, cli/ or studio/", () => {
    const files = sourceFiles(runtime);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => upwardImports(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("finds an upward import when there is one (the check can fail)", () => {
    const file = join(runtime, "message-excerpt.ts");
    expect(upwardImports(file, 'import { excerpt } from "../chat/trace/excerpt.js";\nimport type { X } from "./types.js";')).toEqual([
      `runtime${sep}message-excerpt.ts -> chat${sep}trace${sep}excerpt.js`,
    ]);
  });

  it("calls streamText in one module: the AI SDK adapter's, which the model engine's stream-model calls", () => {
    expect(streamTextCallers()).toEqual([join("ai-sdk", "stream-model.ts")]);
  });
});
