import { readFileSync } from "node:fs";

/** The package's version, from its package.json (two levels up from both `src/cli` and `dist/cli`). */
export function juneVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return pkg.version ?? "0.0.0";
}
