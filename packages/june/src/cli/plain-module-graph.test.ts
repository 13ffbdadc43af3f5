import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isPlainModuleGraph } from "./plain-module-graph.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project in the system temp dir with a `june` of its own in node_modules (two entry points) and `files`. */
function project(files: Record<string, string>): { dir: string; exports: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "june-plain-graph-"));
  dirs.push(dir);
  const all: Record<string, string> = {
    "node_modules/june/package.json": JSON.stringify({
      name: "june",
      type: "module",
      exports: { ".": "./dist/index.js", "./chat": "./dist/chat/index.js" },
    }),
    "node_modules/june/dist/index.js": "export const june = 1;\n",
    "node_modules/june/dist/chat/index.js": "export const chat = 1;\n",
    "node_modules/plain-lib/package.json": JSON.stringify({ name: "plain-lib", main: "index.js" }),
    "node_modules/plain-lib/index.js": "module.exports = 1;\n",
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const exports = {
    june: pathToFileURL(join(dir, "node_modules/june/dist/index.js")).href,
    "june/chat": pathToFileURL(join(dir, "node_modules/june/dist/chat/index.js")).href,
  };
  return { dir, exports };
}

function plain(files: Record<string, string>, entry = "chat.mjs", exports?: Record<string, string>): boolean {
  const made = project(files);
  const path = join(made.dir, entry);
  const own = exports ?? made.exports;
  return isPlainModuleGraph({ path, source: readFileSync(path, "utf8"), ownEntryPoint: (specifier) => own[specifier] });
}

describe("isPlainModuleGraph", () => {
  it("vouches for ES modules whose static imports Node resolves to June's files, packages and local modules", () => {
    const files = {
      "chat.mjs": [
        'import { june } from "june";',
        'import {\n  chat,\n} from "june/chat";',
        'import { readFileSync } from "node:fs";',
        'import path from "path";',
        'import lib from "plain-lib";',
        'import { helper } from "./lib/helper.js";',
        'export { helper as again } from "./lib/helper.js";',
        "export default { june, chat, readFileSync, path, lib, helper, url: import.meta.url };",
      ].join("\n"),
      "lib/package.json": `{ "type": "module" }`,
      "lib/helper.js": 'import "./util.mjs";\nexport const helper = 1;\n',
      "lib/util.mjs": "export {};\n",
    };
    expect(plain(files)).toBe(true);
  });

  it("takes a `june` that node_modules links to the CLI's package (a workspace)", () => {
    const made = project({ "chat.mjs": 'import { chat } from "june/chat";\nexport default chat;\n' });
    const real = join(made.dir, "packages", "june");
    mkdirSync(join(made.dir, "packages"));
    renameSync(join(made.dir, "node_modules", "june"), real);
    symlinkSync(real, join(made.dir, "node_modules", "june"), "dir");
    const exports: Record<string, string> = { "june/chat": pathToFileURL(join(real, "dist/chat/index.js")).href };
    const path = join(made.dir, "chat.mjs");
    expect(isPlainModuleGraph({ path, source: readFileSync(path, "utf8"), ownEntryPoint: (specifier) => exports[specifier] })).toBe(true);
  });

  it("leaves to the hooks a `june` that is another copy than the CLI's", () => {
    const other = { june: "file:///elsewhere/june/dist/index.js", "june/chat": "file:///elsewhere/june/dist/chat/index.js" };
    expect(plain({ "chat.mjs": 'import { june } from "june";\n' }, "chat.mjs", other)).toBe(false);
    expect(plain({ "chat.mjs": 'import { x } from "june/testing";\n' })).toBe(false);
  });

  it("leaves to the hooks what Node alone would load differently or not at all", () => {
    const cases: Record<string, Record<string, string>> = {
      "a dynamic import": { "chat.mjs": 'const m = await import("./x.mjs");\n', "x.mjs": "export {};\n" },
      require: { "chat.mjs": 'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n' },
      "a directory": { "chat.mjs": 'import "./lib";\n', "lib/index.js": "export {};\n", "package.json": `{ "type": "module" }` },
      "no extension": { "chat.mjs": 'import "./helper";\n', "helper.mjs": "export {};\n" },
      "a .ts file": { "chat.mjs": 'import "./helper.ts";\n', "helper.ts": "export {};\n" },
      ".js that is .ts": { "chat.mjs": 'import "./helper.js";\n', "helper.ts": "export {};\n" },
      JSON: { "chat.mjs": 'import data from "./data.json" with { type: "json" };\n', "data.json": "{}" },
      "a .js file in a CommonJS scope": { "chat.mjs": 'import "./helper.js";\n', "helper.js": "export {};\n" },
      "a package that is not there": { "chat.mjs": 'import "nope-pkg";\n' },
      "the word import in a comment": { "chat.mjs": "// import nothing\nexport default 1;\n" },
      "a query string": { "chat.mjs": 'import "./x.mjs?v=1";\n', "x.mjs": "export {};\n" },
      "a deeper file with a dynamic import": { "chat.mjs": 'import "./a.mjs";\n', "a.mjs": 'await import("june");\n' },
    };
    for (const [name, files] of Object.entries(cases)) {
      expect({ name, plain: plain(files) }).toEqual({ name, plain: false });
    }
  });

  it("takes a .js entry only in a module scope", () => {
    expect(plain({ "chat.js": 'import { june } from "june";\n' }, "chat.js")).toBe(false);
    expect(plain({ "chat.js": 'import { june } from "june";\n', "package.json": `{ "type": "module" }` }, "chat.js")).toBe(true);
  });
});
