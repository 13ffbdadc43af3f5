// The registry's `june` is an unrelated project (issue 41): no page, README or example tells a reader to
// `npm install june` (or `npm i` / `npm add` it, `june@…` included) from the registry. A line that warns
// against it ("never", "not") is fine; `-w june` names this repository's workspace, not a registry package.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoDir = fileURLToPath(new URL("../../../../", import.meta.url));

function files(dir: string, ends: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : files(path, ends);
    return ends.test(entry.name) ? [path] : [];
  });
}

/** True when `line` runs an npm install of the registry's `june`. */
function installsRegistryJune(line: string): boolean {
  if (/\b(never|not)\b/i.test(line)) return false;
  for (const match of line.matchAll(/\bnpm\s+(?:install|i|add)\b([^#;&|`]*)/g)) {
    const args = match[1]!.trim().split(/\s+/);
    for (let i = 0; i < args.length; i++) {
      if (!/^june(@\S*)?$/.test(args[i]!)) continue;
      if (/^(-w|--workspace)$/.test(args[i - 1] ?? "")) continue;
      return true;
    }
  }
  return false;
}

const pages = [
  ...files(join(repoDir, "docs"), /\.md$/),
  ...files(join(repoDir, "examples"), /\.(md|ts|tsx|mjs)$/),
  ...["README.md", "apps/copy-agent/README.md", "packages/june/README.md", "packages/studio/README.md", "packages/design-system/README.md"]
    .map((path) => join(repoDir, path))
    .filter(existsSync),
];

describe("no page installs the registry's june", () => {
  it("tells the installs apart", () => {
    expect(installsRegistryJune("npm install june ai @ai-sdk/openai")).toBe(true);
    expect(installsRegistryJune("npm i june@0.1.0")).toBe(true);
    expect(installsRegistryJune("npm install ai june")).toBe(true);
    expect(installsRegistryJune("npm install /path/to/june-0.1.0.tgz ai")).toBe(false);
    expect(installsRegistryJune("npm install ../june/packages/june")).toBe(false);
    expect(installsRegistryJune("npm install -w june zod")).toBe(false);
    expect(installsRegistryJune("never `npm install june`: that is another project")).toBe(false);
    expect(installsRegistryJune("npm ci -w june --ignore-scripts")).toBe(false);
  });

  it.each(pages.map((path) => [relative(repoDir, path), path] as const))("%s", (_name, path) => {
    const found = readFileSync(path, "utf8")
      .split("\n")
      .flatMap((line, i) => (installsRegistryJune(line) ? [`${relative(repoDir, path)}:${i + 1}: ${line.trim()}`] : []));
    expect(found, found.join("\n")).toEqual([]);
  });
});
