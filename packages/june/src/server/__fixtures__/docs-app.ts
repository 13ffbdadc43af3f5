// A React recipe of docs/*.md, taken from the page as written, type-checked with React's JSX, built into a page
// for one AI SDK line and served on one origin with a June handler under /api/june: what the recipe's reader does.
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { extractBlocks } from "../../docs/__fixtures__/doc-blocks.js";
import { serve, type FetchHandler, type RunningServer } from "../node.js";
import { serveStaticFile } from "../static-files.js";
import { buildBrowserApp, type UseChatLine } from "./use-chat-app.js";

const packageDir = fileURLToPath(new URL("../../../", import.meta.url));
const repoDir = join(packageDir, "../..");
/** Inside the package (git-ignored), so the page's imports resolve as an app's of this repo would. */
const appsDir = join(packageDir, ".tmp", "docs-apps");

/** The tsx block of `docs/<page>` whose code holds `marker` (its first comment line, say), as written. */
export function docsBlock(page: string, marker: string): string {
  const path = join(repoDir, "docs", page);
  const found = extractBlocks(`docs/${page}`, readFileSync(path, "utf8")).filter((block) => block.code.includes(marker));
  if (found.length !== 1) throw new Error(`docs/${page}: ${found.length} blocks hold ${JSON.stringify(marker)}, expected 1`);
  return found[0]!.code;
}

/** A page of `files` (its entry is `main.tsx`): written under the package, named `name`. */
export async function writeDocsApp(name: string, files: Record<string, string>): Promise<string> {
  const root = join(appsDir, name);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await writeFile(join(root, "index.html"), `<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><title>${name}</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>\n`);
  for (const [file, code] of Object.entries(files)) await writeFile(join(root, file), code);
  return root;
}

/**
 * The type errors of the page's files, checked as a React app of this repo is: React's JSX, `june` from its build
 * (packages/june/dist), workspace packages from their source, the installed `ai` and `@ai-sdk/react`.
 */
export function typeErrors(root: string, files: string[]): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: "react",
    customConditions: ["june-source"],
    types: [],
  };
  const program = ts.createProgram(files.map((file) => join(root, file)), options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const at = diagnostic.file && diagnostic.start !== undefined ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: ` : "";
    return `${at}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

/** Builds the page at `root` for `line` into `outDir` and serves it, with `api` answering under `/api/june`. */
export async function serveDocsApp(line: UseChatLine, root: string, outDir: string, api: FetchHandler): Promise<RunningServer> {
  await buildBrowserApp(line, root, outDir);
  return serve({
    handler: (request) => {
      const { pathname } = new URL(request.url);
      return pathname.startsWith("/api/june/") ? api(request) : serveStaticFile(pathname, { root: outDir });
    },
  });
}
