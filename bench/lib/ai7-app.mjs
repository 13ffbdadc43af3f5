/**
 * This build of June packed (`npm pack`) and installed beside `ai@7` in an app of its own, outside the repository
 * (the path the pack test takes: `src/ai-sdk/pack.e2e.test.ts`): what the `platforms` section and the peer
 * harness's `ai@7` leg run their children in, so that `june` and `ai` resolve to that app's copies.
 *
 * The app is kept in the system's temporary folder (`june-bench-ai7/`) so its packages install once (npm's
 * cache after that); June's tarball is packed and installed again on every call, so it is always this build.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The app's `ai`, pinned: AI SDK 7's line as `ci/ai7/package.json` pins it. */
export const AI7 = "7.0.173";

const packageDir = fileURLToPath(new URL("../../packages/june", import.meta.url));

/**
 * Packs and installs this build beside `ai@AI7` and copies `files` (absolute paths) into the app, under
 * `subdir` when given (a child's siblings keep their relative imports). Returns the app's directory.
 */
export function ai7App(log, files = [], subdir = "") {
  const app = join(tmpdir(), "june-bench-ai7");
  mkdirSync(app, { recursive: true });
  for (const name of readdirSync(app)) if (name.endsWith(".tgz")) rmSync(join(app, name));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const packed = spawnSync(npm, ["pack", "--pack-destination", app], { cwd: packageDir, encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`bench: npm pack failed: ${packed.stderr}`);
  const tarball = readdirSync(app).find((name) => name.endsWith(".tgz"));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "june-bench-ai7", private: true, type: "module", dependencies: { june: `file:./${tarball}`, ai: AI7 } }, null, 2));
  // The tarball's name does not change between builds: drop the installed copy and the lockfile (which holds
  // the last tarball's integrity, so npm would install that one from its cache) so npm installs this one.
  rmSync(join(app, "node_modules", "june"), { recursive: true, force: true });
  rmSync(join(app, "package-lock.json"), { force: true });
  log(`installing June (${tarball}) beside ai@${AI7} in ${app}`);
  const installed = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: app, encoding: "utf8", timeout: 600_000 });
  if (installed.status !== 0) throw new Error(`bench: npm install in ${app} failed: ${installed.stderr}`);
  const into = join(app, subdir);
  mkdirSync(into, { recursive: true });
  for (const file of files) copyFileSync(file, join(into, basename(file)));
  return app;
}
