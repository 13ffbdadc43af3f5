/**
 * The BUILT `june` the end-to-end tests spawn (dist/cli/bin.js, the library and CLI bundled by scripts/bundle.mjs), rebuilt
 * (tsc, then the bundle) first when it is missing or older than the source (`npm test` at the root builds first, so
 * this is for running one file by hand).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const packageDir = fileURLToPath(new URL("../../../", import.meta.url));
export const bin = join(packageDir, "dist/cli/bin.js");

/** A module hook that appends every ES module URL the process resolves to the file `JUNE_TRACE_FILE` names. */
const TRACE_HOOK = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(process.env.JUNE_TRACE_FILE, result.url + "\\n");
  return result;
}`;
/** `node --import <this>` registers TRACE_HOOK before the process loads anything else. */
export const traceImport = `data:text/javascript,${encodeURIComponent(
  `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(TRACE_HOOK)}`)});`,
)}`;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the package when dist/cli/bin.js is missing or older than any source file. */
export function ensureBuilt(): void {
  if (existsSync(bin) && statSync(bin).mtimeMs >= newestSource(join(packageDir, "src"))) return;
  execFileSync(process.execPath, [join(packageDir, "../../node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: packageDir,
    stdio: "inherit",
  });
  execFileSync(process.execPath, [join(packageDir, "scripts/bundle.mjs")], { cwd: packageDir, stdio: "inherit" });
}

/**
 * June built (if need be) and packed with `npm pack` into `destination`, as an app outside the repository would
 * install it; answers the tarball's file name (in `destination`).
 */
export function packJune(destination: string): string {
  ensureBuilt();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const before = new Set(readdirSync(destination));
  execFileSync(npm, ["pack", "--pack-destination", destination], { cwd: packageDir, stdio: "pipe" });
  const tarball = readdirSync(destination).find((name) => name.endsWith(".tgz") && !before.has(name));
  if (tarball === undefined) throw new Error(`npm pack left no new .tgz in ${destination}`);
  return tarball;
}
