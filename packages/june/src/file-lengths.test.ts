/**
 * No shipped source file over 500 lines (issue 36, the house style): in `src` (the test kit, `src/testing`, aside)
 * and in Studio's `src`. A longer file holds several concepts; cut it at its seams, one concept per file.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./__fixtures__/import-walker.js";

const MAX_LINES = 500;
const src = dirname(fileURLToPath(import.meta.url));
const studioSrc = join(src, "..", "..", "studio", "src");
const testKit = join(src, "testing");

const lineCount = (file: string) => readFileSync(file, "utf8").replace(/\n$/, "").split("\n").length;
/** The files of `files` over `MAX_LINES`, as `path: lines` from `root`. */
const tooLong = (root: string, files: string[]) => files.filter((file) => lineCount(file) > MAX_LINES).map((file) => `${relative(root, file)}: ${lineCount(file)}`);

describe(`shipped source files are ${MAX_LINES} lines at most`, () => {
  it("in packages/june/src (the test kit aside)", () => {
    const files = sourceFiles(src).filter((file) => !file.startsWith(testKit + "/"));
    expect(files.length).toBeGreaterThan(200);
    expect(tooLong(src, files)).toEqual([]);
  });

  it("in packages/studio/src", () => {
    const files = sourceFiles(studioSrc);
    expect(files.length).toBeGreaterThan(20);
    expect(tooLong(studioSrc, files)).toEqual([]);
  });
});
