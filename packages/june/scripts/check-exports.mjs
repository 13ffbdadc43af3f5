// Fails when an entry of package.json's exports map does not resolve to a built file, or when a
// subpath's module cannot be imported. Run after `npm run build`.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const problems = [];
let checked = 0;

for (const [subpath, target] of Object.entries(pkg.exports)) {
  const targets = typeof target === "string" ? { default: target } : target;
  const keys = Object.keys(targets);
  if (typeof target !== "string" && keys[0] !== "types") problems.push(`${subpath}: "types" must come first`);
  for (const [condition, file] of Object.entries(targets)) {
    if (!existsSync(join(root, file))) problems.push(`${subpath} (${condition}): ${file} does not exist`);
  }
  if (targets.default?.endsWith(".js")) {
    try {
      await import(pathToFileURL(join(root, targets.default)).href);
    } catch (error) {
      problems.push(`${subpath}: import failed: ${error?.message ?? error}`);
    }
  }
  checked++;
}
if (pkg.bin) {
  for (const [name, file] of Object.entries(typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : pkg.bin)) {
    if (!existsSync(join(root, file))) problems.push(`bin ${name}: ${file} does not exist`);
    checked++;
  }
}

if (problems.length > 0) {
  console.error(`exports check: ${problems.length} problem(s)`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(`exports check: ${checked} entries resolve`);
