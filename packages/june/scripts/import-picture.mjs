// Prints the import picture of src/: every arrow from one folder to another, with how many imports make it
// (`--files`: and which). The floors the arrows must go down are in src/runtime/import-floors.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__fixtures__") files.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) && !/\.e2e\./.test(entry.name)) files.push(path);
  }
  return files;
}

const folderOf = (path) => (path.split(sep).length > 1 ? path.split(sep)[0] : "(root)");
const arrows = new Map();
for (const file of sourceFiles(src)) {
  const from = folderOf(relative(src, file));
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec?.startsWith(".")) continue;
    const target = relative(src, resolve(dirname(file), spec));
    const to = folderOf(target);
    if (to === from) continue;
    const key = `${from} -> ${to}`;
    arrows.set(key, [...(arrows.get(key) ?? []), `${relative(src, file)} -> ${target}`]);
  }
}
for (const [key, imports] of [...arrows].sort()) {
  console.log(`${key} (${imports.length})`);
  if (process.argv.includes("--files")) for (const line of imports) console.log(`    ${line}`);
}
