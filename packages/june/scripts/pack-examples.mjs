// `npm pack`'s prepack step: copies the examples docs/getting-started.md names (the repository's examples/) into
// this package's examples/ (git-ignored), so the tarball ships them beside its README.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The examples a packed June ships: the ones getting-started runs. */
export const PACKED_EXAMPLES = ["first-workflow.tsx", "offline.tsx"];

mkdirSync(join(packageDir, "examples"), { recursive: true });
for (const name of PACKED_EXAMPLES) copyFileSync(join(packageDir, "../../examples", name), join(packageDir, "examples", name));
