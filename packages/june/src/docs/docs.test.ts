// June's documentation pages (docs/ at the repository root), tested: every ```ts / ```tsx block is
// type-checked against June's source and run, as written, with `june/sdk/*` swapped for scripted models
// (so blocks that use `openai("gpt-5-mini")` run offline); `<!-- no-run -->` on the line before a block
// makes it type-check only, `<!-- no-check -->` neither. Every relative link resolves, to a file and, with
// `#anchor`, to a heading of that page.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { extractBlocks, headingAnchors, markdownLinks, type DocBlock } from "./__fixtures__/doc-blocks.js";

vi.mock("june/sdk/openai", async (importOriginal) =>
  (await import("./__fixtures__/scripted-providers.js")).scriptedProviderModule(await importOriginal(), "openai", "createOpenAI"),
);
vi.mock("june/sdk/anthropic", async (importOriginal) =>
  (await import("./__fixtures__/scripted-providers.js")).scriptedProviderModule(await importOriginal(), "anthropic", "createAnthropic"),
);
vi.mock("june/sdk/google", async (importOriginal) =>
  (await import("./__fixtures__/scripted-providers.js")).scriptedProviderModule(await importOriginal(), "google", "createGoogleGenerativeAI"),
);
vi.mock("june/sdk/openai-compatible", async (importOriginal) =>
  (await import("./__fixtures__/scripted-providers.js")).scriptedProviderModule(await importOriginal(), "openaiCompatible", "createOpenAICompatible"),
);

const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const repoDir = resolve(packageDir, "../..");
const docsDir = join(repoDir, "docs");
/** Blocks are written inside the package (not under node_modules, which vitest would not transform), git-ignored. */
const blocksDir = join(packageDir, ".docs-blocks");

function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const pages = markdownFiles(docsDir).sort();
const blocks: DocBlock[] = pages.flatMap((path) => extractBlocks(relative(repoDir, path), readFileSync(path, "utf8")));
const checked = blocks.filter((block) => block.mode !== "skip");
const runnable = blocks.filter((block) => block.mode === "run");

const where = (block: DocBlock) => `${block.page}:${block.line}`;
const fileOf = (block: DocBlock) => join(blocksDir, `${block.page.replace(/[/\\.]/g, "_")}_${block.line}.${block.lang}`);

let diagnostics: Map<string, string[]>;

beforeAll(async () => {
  await rm(blocksDir, { recursive: true, force: true });
  await mkdir(blocksDir, { recursive: true });
  for (const block of checked) await writeFile(fileOf(block), block.code);

  // One program for every block: June's own compiler options, with `june` and its entry points mapped to src.
  const config = ts.getParsedCommandLineOfConfigFile(join(packageDir, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  })!;
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false, rootDir: undefined };
  const program = ts.createProgram({ rootNames: checked.map(fileOf), options });
  diagnostics = new Map();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? "";
    const block = checked.find((candidate) => resolve(fileOf(candidate)) === resolve(file));
    const key = block ? where(block) : file || "(program)";
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : 0;
    const at = block ? `${block.page}:${block.line + 1 + line}` : `${file}:${line + 1}`;
    const message = `${at}: TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    diagnostics.set(key, [...(diagnostics.get(key) ?? []), message]);
  }
}, 180_000);

afterAll(async () => {
  await rm(blocksDir, { recursive: true, force: true });
});

describe("docs/", () => {
  it("has pages, with TypeScript blocks", () => {
    expect(pages.length).toBeGreaterThan(0);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it("type-checks every block but the no-check ones", () => {
    const errors = [...diagnostics.values()].flat();
    expect(errors, errors.join("\n")).toEqual([]);
  });

  it("has no run block that uses a value it only declares (mark such a block <!-- no-run -->)", () => {
    const declaring = runnable.filter((block) => /^\s*declare\s+(const|let|var|function)\b/m.test(block.code)).map(where);
    expect(declaring).toEqual([]);
  });

  describe("runs every block but the no-run and no-check ones", () => {
    let cwd: string;
    let tmp: string;
    beforeAll(async () => {
      // Blocks write `.june/chat` and such relative to the working directory: give them one of their own.
      cwd = process.cwd();
      tmp = await mkdtemp(join(tmpdir(), "june-docs-"));
      process.chdir(tmp);
    });
    afterAll(async () => {
      process.chdir(cwd);
      await rm(tmp, { recursive: true, force: true });
    });

    it.each(runnable.map((block) => [where(block), block] as const))("%s", async (_name, block) => {
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
      try {
        await import(/* @vite-ignore */ pathToFileURL(fileOf(block)).href);
      } finally {
        log.mockRestore();
      }
    });
  });

  describe("links", () => {
    const linked = [...pages, join(repoDir, "apps/copy-agent/README.md"), join(repoDir, "packages/design-system/README.md")].filter(existsSync);
    it.each(linked.map((path) => [relative(repoDir, path), path] as const))("%s: every relative link resolves", (_name, path) => {
      const broken: string[] = [];
      const markdown = readFileSync(path, "utf8");
      for (const { line, target } of markdownLinks(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split("#", 2) as [string, string | undefined];
        const resolved = file === "" ? path : resolve(dirname(path), decodeURIComponent(file));
        if (!existsSync(resolved)) {
          broken.push(`${relative(repoDir, path)}:${line}: ${target} (no ${relative(repoDir, resolved)})`);
          continue;
        }
        if (anchor !== undefined && resolved.endsWith(".md") && statSync(resolved).isFile()) {
          if (!headingAnchors(readFileSync(resolved, "utf8")).has(anchor)) {
            broken.push(`${relative(repoDir, path)}:${line}: ${target} (no heading #${anchor} in ${relative(repoDir, resolved)})`);
          }
        }
      }
      expect(broken, broken.join("\n")).toEqual([]);
    });
  });
});
