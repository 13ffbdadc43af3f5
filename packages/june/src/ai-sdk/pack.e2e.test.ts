/**
 * The check issue 23 names, end to end: June packed with `npm pack` and installed into an empty app beside the
 * app's own `ai` and `@ai-sdk/openai` (pinned: AI SDK 7's line when June runs on it, the CI leg on Node 24), with
 * no install flags. The install has no peer conflict and June uses the app's `ai`; the app
 * (`scripts/pack-app/app.mjs`) streams a model chat's reply from a `v4` model through June's fake OpenAI server,
 * runs an agent turn whose AI SDK tool needs approval (asked once, run once, replied), and reads `/ui-chat` with
 * the app's `readUIMessageStream`. It installs from the npm registry into a temporary folder, so it runs on the
 * AI SDK 7 leg of CI, or when `JUNE_PACK_TEST=1` asks for it (then with the AI SDK 6 line). The tarball holds the
 * package's README and the examples docs/getting-started.md names (issue 41), and the installed first example runs.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageDir, packJune } from "../cli/__fixtures__/built-bin.js";
import { AI_SDK_MAJOR } from "./major.js";

/** The app's own packages, pinned, by AI SDK line (the versions the repository's lockfiles hold). */
const APP_PACKAGES = {
  6: { ai: "6.0.325", "@ai-sdk/openai": "3.0.141" },
  7: { ai: "7.0.173", "@ai-sdk/openai": "4.0.118" },
} as const;

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const enabled = AI_SDK_MAJOR === 7 || process.env.JUNE_PACK_TEST === "1";
let dir = "";
let tarball = "";

describe.runIf(enabled)(`june packed and installed beside ai@${APP_PACKAGES[AI_SDK_MAJOR].ai}`, () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "june-pack-"));
    tarball = packJune(dir);
  }, 240_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships its README and the examples getting-started names", () => {
    const listed = spawnSync("tar", ["-tzf", join(dir, tarball)], { encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    const files = listed.stdout.split("\n");
    for (const file of ["package/README.md", "package/examples/first-workflow.tsx", "package/examples/offline.tsx"]) expect(files).toContain(file);
  });

  it("installs with no flags and no peer conflict, uses the app's ai, and a model turn, an approved tool and /ui-chat all work", () => {
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "pack-app", private: true, type: "module", dependencies: { june: `file:./${tarball}`, ...APP_PACKAGES[AI_SDK_MAJOR] } }, null, 2),
    );
    copyFileSync(join(packageDir, "scripts/pack-app/app.mjs"), join(dir, "app.mjs"));

    const install = spawnSync(npm, ["install", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8", timeout: 300_000 });
    expect(install.stderr).not.toMatch(/ERESOLVE|peer dep|conflict/i);
    expect(install.status, install.stderr).toBe(0);
    // June nests no `ai` of its own: it is a peer, so June imports the app's.
    expect(existsSync(join(dir, "node_modules/june/node_modules/ai"))).toBe(false);

    const app = spawnSync(process.execPath, ["app.mjs"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(app.status, app.stderr).toBe(0);
    const report = JSON.parse(app.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(report).toEqual({
      aiVersion: APP_PACKAGES[AI_SDK_MAJOR].ai,
      sameAi: true,
      specificationVersion: AI_SDK_MAJOR === 7 ? "v4" : "v3",
      modelReply: "Hello from a v4 model.",
      asked: 1,
      runs: 1,
      agentReply: "Deployed to staging.",
      uiReply: "Streamed through /ui-chat.",
    });

    // The shipped example runs from the installed package, offline (its model is scripted).
    const example = spawnSync(process.execPath, ["node_modules/june/bin/june.js", "run", "node_modules/june/examples/first-workflow.tsx", "--input", "the bicycle"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(example.status, example.stderr).toBe(0);
    expect(example.stdout).toContain("chain-driven safety bikes");
  }, 420_000);
});
