/**
 * End to end: how the BUILT `june` (dist/cli/bin.js, run with node as a real process) loads user modules of
 * every shape (JavaScript and TypeScript, in folders that say CommonJS or nothing, with a tsconfig or
 * none), and that it imports only what a command needs: `--help` no SDK, `--model openai:…` no other
 * provider. Built first when dist is missing or older than the source.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bin, ensureBuilt, packageDir, traceImport } from "./__fixtures__/built-bin.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAIServer } from "../testing/fake-openai-server.js";



beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory in the system temp dir (no package.json, no tsconfig.json above it) holding `files`. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "june-modules-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function june(args: string[], options: { cwd: string; env?: Record<string, string>; nodeArgs?: string[] }): Promise<Result> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: options.cwd, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** A chat module's body: a model chat (sessions in memory) whose scripted model replies with `reply` (an expression). */
const chatWith = (reply: string) =>
  `import { createChat } from "june/chat";\nimport { scriptedModel } from "june/testing";\nexport default createChat({ model: scriptedModel(${reply}) });\n`;

describe("june ask loads modules of every shape", { timeout: 90_000 }, () => {
  const cases: { name: string; files: Record<string, string>; entry: string; stdout?: string; error?: RegExp }[] = [
    { name: "an .mjs module in a folder with no package.json", files: { "chat.mjs": chatWith(`"mjs ok"`) }, entry: "chat.mjs", stdout: "mjs ok" },
    {
      name: "an .mjs module with top-level await",
      files: { "chat.mjs": `await Promise.resolve();\n${chatWith(`"tla ok"`)}` },
      entry: "chat.mjs",
      stdout: "tla ok",
    },
    {
      name: "a .ts module in a folder whose package.json says CommonJS",
      files: { "package.json": `{ "type": "commonjs" }`, "chat.ts": `const reply: string = "ts ok";\n${chatWith("reply")}` },
      entry: "chat.ts",
      stdout: "ts ok",
    },
    {
      name: "a .jsx module with JSX and no pragma",
      files: {
        "chat.jsx": `import { Agent, Step } from "june";\nimport { agentResponder } from "june/chat";\nimport { scriptedModel } from "june/testing";\nconst model = scriptedModel("jsx ok");\nexport default agentResponder({ render: ({ input }) => <Agent model={model}><Step id="r" prompt={input} /></Agent>, reply: (r) => String(r.steps.r) });\n`,
      },
      entry: "chat.jsx",
      stdout: "jsx ok",
    },
    {
      name: "an .mjs module importing a .ts file",
      files: { "chat.mjs": `import { reply } from "./helper.ts";\n${chatWith("reply")}`, "helper.ts": `export const reply: string = "helper ok";\n` },
      entry: "chat.mjs",
      stdout: "helper ok",
    },
    {
      name: "an .mjs module importing ./helper.js that is helper.ts",
      files: { "chat.mjs": `import { reply } from "./helper.js";\n${chatWith("reply")}`, "helper.ts": `export const reply: string = ".js to .ts ok";\n` },
      entry: "chat.mjs",
      stdout: ".js to .ts ok",
    },
    {
      name: "an .mjs module importing a directory",
      files: { "package.json": `{ "type": "module" }`, "chat.mjs": `import { reply } from "./lib";\n${chatWith("reply")}`, "lib/index.js": `export const reply = "index ok";\n` },
      entry: "chat.mjs",
      stdout: "index ok",
    },
    {
      name: "an .mjs module importing JSON without an import attribute",
      files: { "chat.mjs": `import data from "./data.json";\n${chatWith("data.reply")}`, "data.json": `{ "reply": "json ok" }` },
      entry: "chat.mjs",
      stdout: "json ok",
    },
    {
      name: "an .mjs module importing `ai`, which only June's own dependencies have",
      files: { "chat.mjs": `import { jsonSchema } from "ai";\n${chatWith(`typeof jsonSchema === "function" ? "ai ok" : "no ai"`)}` },
      entry: "chat.mjs",
      stdout: "ai ok",
    },
    {
      // tsx rewrites a JavaScript module's dynamic imports: a CommonJS module marked __esModule gives its exports.
      name: "an .mjs module importing CommonJS dynamically",
      files: {
        "chat.mjs": `const m = await import("./lib.cjs");\n${chatWith("Object.keys(m).join()")}`,
        "lib.cjs": `Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = { a: 1 };\nexports.b = 2;\n`,
      },
      entry: "chat.mjs",
      stdout: "default,b",
    },
    {
      // tsx maps tsconfig paths first, even over a package Node would find.
      name: "an .mjs module under a tsconfig.json with paths",
      files: {
        "tsconfig.json": `{ "compilerOptions": { "baseUrl": ".", "paths": { "reply-lib": ["./lib/reply.js"] } } }`,
        "chat.mjs": `import { reply } from "reply-lib";\n${chatWith("reply")}`,
        "lib/reply.js": `export const reply = "paths ok";\n`,
        "node_modules/reply-lib/package.json": `{ "name": "reply-lib", "type": "module", "exports": "./index.js" }`,
        "node_modules/reply-lib/index.js": `export const reply = "node_modules";\n`,
        "package.json": `{ "type": "module" }`,
      },
      entry: "chat.mjs",
      stdout: "paths ok",
    },
    {
      name: "a .js module with JSX (JSX takes .jsx or .tsx)",
      files: { "chat.js": `import { Agent } from "june";\nexport const element = <Agent />;\n${chatWith(`"x"`)}` },
      entry: "chat.js",
      error: /^june: chat\.js failed to load: /,
    },
    {
      name: "an .mjs module importing a package that is nowhere",
      files: { "chat.mjs": `import "nope-pkg";\n${chatWith(`"x"`)}` },
      entry: "chat.mjs",
      error: /^june: chat\.mjs failed to load: Cannot find package 'nope-pkg' imported from \S+chat\.mjs$/,
    },
    {
      name: "an .mjs module with a syntax error",
      files: { "chat.mjs": "export default <;\n" },
      entry: "chat.mjs",
      error: /^june: chat\.mjs failed to load: SyntaxError: Unexpected token '<'$/,
    },
  ];

  it.each(cases)("$name", async ({ files, entry, stdout, error }) => {
    const result = await june(["ask", entry, "hi"], { cwd: project(files) });
    if (error) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(error);
    } else {
      expect(result).toMatchObject({ code: 0, stdout });
      expect(result.stderr).toMatch(/^session \S+\n/);
    }
  });
});

/** Runs the built `june` and returns what it printed and every ES module URL it resolved. */
async function traced(args: string[], env: Record<string, string> = {}): Promise<Result & { urls: string[] }> {
  const cwd = project({});
  const traceFile = join(cwd, "trace.txt");
  writeFileSync(traceFile, "");
  const result = await june(args, { cwd, env: { ...env, JUNE_TRACE_FILE: traceFile }, nodeArgs: ["--import", traceImport] });
  return { ...result, urls: readFileSync(traceFile, "utf8").split("\n").filter(Boolean) };
}

const loaded = (urls: readonly string[], part: string) => urls.some((url) => url.includes(part));

describe("june imports only what a command needs", { timeout: 60_000 }, () => {
  it("--help and --version load no SDK, no June runtime, no server and no tsx", async () => {
    for (const args of [["--help"], ["--version"], ["ask", "--help"]]) {
      const result = await traced(args);
      expect(result.code).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
      expect(loaded(result.urls, "/dist/cli/bin.js")).toBe(true);
      // June's library is bundled (scripts/bundle.mjs): its entries, the agent runtime's chunk, the commands' chunks.
      const heavy = ["/node_modules/ai/", "/node_modules/@ai-sdk/", "/node_modules/tsx/", "/dist/index.js", "/dist/chat/", "/dist/server/", "/dist/chunks/start-", "-action-"];
      for (const part of heavy) {
        expect({ args, part, loaded: loaded(result.urls, part) }).toEqual({ args, part, loaded: false });
      }
    }
  });

  it("june ask runs the bundled CLI, and the same `june/chat` file a chat module's import loads (one copy)", async () => {
    const cwd = project({ "chat.mjs": chatWith(`"one copy"`) });
    const result = await traced(["ask", join(cwd, "chat.mjs"), "hi"]);
    expect(result).toMatchObject({ code: 0, stdout: "one copy" });
    const own = result.urls.filter((url) => url.includes("/packages/june/dist/") || url.includes("/node_modules/june/dist/"));
    // The bundle alone: the CLI's entry, the exports' entries and the chunks of the one build, none of tsc's files.
    const exported = Object.values(JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).exports as Record<string, { default?: string }>)
      .map((target) => target.default?.replace(/^\.\/dist\//, ""))
      .filter((path): path is string => path !== undefined);
    for (const url of own) {
      const path = url.slice(url.indexOf("/dist/") + "/dist/".length);
      expect({ url, bundled: path === "cli/bin.js" || exported.includes(path) || /^chunks\/[\w-]+-[A-Z0-9]{8}\.js$/.test(path) }).toEqual({ url, bundled: true });
    }
    expect(loaded(own, "/dist/cli/bin.js")).toBe(true);
    expect(own.some((url) => /\/dist\/chunks\/ask-action-[A-Z0-9]{8}\.js$/.test(url))).toBe(true);
    expect(loaded(own, "/dist/chat/index.js")).toBe(true);
  });

  it("--model openai:ID loads the OpenAI provider alone, and neither the server nor tsx", async () => {
    const server = await createFakeOpenAIServer({ script: ["Hello."] });
    try {
      const result = await traced(["ask", "--model", "openai:gpt-5-mini", "hi"], { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url });
      expect(result).toMatchObject({ code: 0, stdout: "Hello." });
      expect(loaded(result.urls, "/node_modules/@ai-sdk/openai/")).toBe(true);
      const others = ["/node_modules/@ai-sdk/anthropic/", "/node_modules/@ai-sdk/google/", "/node_modules/@ai-sdk/openai-compatible/", "/node_modules/tsx/", "/dist/server/"];
      for (const part of others) {
        expect({ part, loaded: loaded(result.urls, part) }).toEqual({ part, loaded: false });
      }
    } finally {
      await server.close();
    }
  });
});
