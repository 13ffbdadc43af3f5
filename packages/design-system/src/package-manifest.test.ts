// @vitest-environment node
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * What the published package imports, it declares: outside this monorepo an installer brings only the
 * package's dependencies and peers, so an import of anything else fails (`tsc`: TS2307, or with
 * `skipLibCheck` the row types silently become `any`).
 */

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const repoRoot = join(packageDir, "../..");
const out = mkdtempSync(join(tmpdir(), "june-design-system-emit-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Manifest;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The package a bare specifier names (`june/stream` → `june`, `@types/react/x` → `@types/react`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every bare specifier a module or declaration file imports (type-only imports included: they stay in .d.ts). */
function bareImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm)) {
    const specifier = match[1] ?? match[2] ?? match[3]!;
    if (!specifier.startsWith(".") && !specifier.startsWith("node:")) found.push(specifier);
  }
  return found;
}

describe("june-design-system's package.json", () => {
  it("declares, as a dependency or peer, every package its emitted .d.ts and .js import", () => {
    // june's declarations first (as `npm run build` does), then this package's, emitted as it publishes them.
    execFileSync(process.execPath, [join(repoRoot, "scripts/june-types.mjs")], { cwd: packageDir, stdio: "inherit" });
    execFileSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", out], {
      cwd: packageDir,
      stdio: "inherit",
    });
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const imported = new Map<string, string>();
    for (const file of files(out).filter((f) => f.endsWith(".d.ts") || f.endsWith(".js"))) {
      for (const specifier of bareImports(readFileSync(file, "utf8"))) imported.set(packageOf(specifier), file.slice(out.length + 1));
    }
    // The check sees what matters: the row types from june/stream, React's JSX runtime.
    expect([...imported.keys()]).toEqual(expect.arrayContaining(["june", "react"]));
    const undeclared = [...imported].filter(([name]) => name !== manifest.name && !declared.has(name)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  }, 300_000);

  it("takes june as a peer, and develops against the workspace's june", () => {
    const june = JSON.parse(readFileSync(join(repoRoot, "packages/june/package.json"), "utf8")) as { version: string };
    expect(manifest.peerDependencies?.june).toBe(`^${june.version}`);
    expect(manifest.devDependencies?.june).toBe(june.version);
    // The lockfile says so too, so `npm ci` agrees with the manifest.
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, Manifest> };
    expect(lock.packages["packages/design-system"]?.peerDependencies?.june).toBe(`^${june.version}`);
  });
});
