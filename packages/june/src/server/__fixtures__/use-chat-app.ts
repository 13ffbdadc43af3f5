// The useChat browser app of tests/browser/use-chat-app, built for one AI SDK line and served, for the e2e
// tests that drive it in Chromium (use-chat.e2e.test.ts, use-chat-files.e2e.test.ts).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { serve, type RunningServer } from "../node.js";
import { serveStaticFile } from "../static-files.js";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const APP_SOURCE = fileURLToPath(new URL("../../../tests/browser/use-chat-app/", import.meta.url));
const AI7_APP = fileURLToPath(new URL("../../../tests/browser/use-chat-ai7/", import.meta.url));

const nodeMajor = Number(process.versions.node.split(".")[0]);
const rootAiMajor = Number((JSON.parse(readFileSync(createRequire(import.meta.url).resolve("ai/package.json"), "utf8")) as { version: string }).version.split(".")[0]);

/** An AI SDK line the app is built against. */
export interface UseChatLine {
  name: string;
  /** Why this line does not run here, if it does not. */
  skip?: string;
  /** The packages the app is built against, when not the repo's own. */
  modules?: string;
}

export const USE_CHAT_LINES: UseChatLine[] = [
  {
    name: "@ai-sdk/react 3 (AI SDK 6)",
    ...(rootAiMajor !== 6 && { skip: `the repo has ai ${rootAiMajor} installed; the 6 line's app is built from the repo's own ai 6 install (the Node 20 leg)` }),
  },
  {
    name: "@ai-sdk/react 4 (AI SDK 7)",
    modules: join(AI7_APP, "node_modules"),
    ...(nodeMajor < 22 && { skip: `ai 7 needs Node 22 or newer, this is Node ${process.versions.node} (the Node 24 leg runs it)` }),
  },
];

/** Packages only the 7 line's install has: assistant-ui 0.15 and its AI SDK adapter 1.4 are built on `ai` 7. */
const AI7_ONLY = ["@assistant-ui/react", "@assistant-ui/react-ai-sdk"];

/** Installs the 7 line's packages from its lockfile when they are not there yet (or not the locked ones). */
async function installAi7(): Promise<void> {
  const lock = JSON.parse(readFileSync(join(AI7_APP, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  const installed = (name: string) => {
    const file = join(AI7_APP, "node_modules", name, "package.json");
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version : undefined;
  };
  if (["ai", "@ai-sdk/react", "react", ...AI7_ONLY].every((name) => installed(name) === lock.packages[`node_modules/${name}`]?.version)) return;
  await promisify(execFile)("npm", ["ci", "--no-audit", "--no-fund"], { cwd: AI7_APP });
}

/** Builds the app against `line`'s packages into `outDir` and serves it; close the server after. */
export async function buildUseChatApp(line: UseChatLine, outDir: string): Promise<RunningServer> {
  await buildBrowserApp(line, APP_SOURCE, outDir);
  return serve({ handler: (request) => serveStaticFile(new URL(request.url).pathname, { root: outDir }) });
}

/**
 * Builds the page at `root` (its index.html) against `line`'s packages into `outDir`: the 7 line's `ai`,
 * `@ai-sdk/react` and React, whoever imports them; workspace packages from their source (`june-source`).
 */
export async function buildBrowserApp(line: UseChatLine, root: string, outDir: string): Promise<void> {
  if (line.modules) await installAi7();
  const [{ build, defaultClientConditions }, { default: react }] = await Promise.all([import("vite"), import("@vitejs/plugin-react")]);
  const alias = line.modules ? ["ai", "@ai-sdk/react", "react", "react-dom", ...AI7_ONLY].map((name) => ({ find: new RegExp(`^${name}(?=/|$)`), replacement: join(line.modules!, name) })) : [];
  const conditions = ["june-source", ...defaultClientConditions];
  await build({ configFile: false, root, base: "./", plugins: [react()], logLevel: "warn", resolve: { alias, conditions }, build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 } });
}
