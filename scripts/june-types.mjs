// june-design-system, June Studio and the Copy Agent import june's types (the first two type-only), and the
// Copy Agent runs june itself, so type-checking, building or starting them needs june built (packages/june/dist).
// Builds it when dist is missing or older than june's source, as on a fresh clone, where `npm run typecheck`
// runs before any build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const june = fileURLToPath(new URL("../packages/june/", import.meta.url));
const declarations = join(june, "dist/chat/index.d.ts");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(declarations) || statSync(declarations).mtimeMs < newestSource(join(june, "src"))) {
  console.error("building june first: its declarations (packages/june/dist) are missing or older than its source");
  execFileSync(process.execPath, [join(june, "../../node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: june,
    stdio: "inherit",
  });
}
