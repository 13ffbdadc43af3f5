// The components import `june/chat`'s row types (type-only), so type-checking or building this package needs
// june's declarations (packages/june/dist). Builds june first when they are missing or older than its source,
// as on a fresh clone, where `npm run typecheck` runs before any build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const june = fileURLToPath(new URL("../../june/", import.meta.url));
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
  console.error("june-design-system: building june for its declarations (june/chat's row types)");
  execFileSync(process.execPath, [join(june, "../../node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: june,
    stdio: "inherit",
  });
}
