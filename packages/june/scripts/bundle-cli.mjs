// Bundles the CLI's own files after tsc (`npm run build`): dist/cli/bin.js and everything it imports from dist/cli/
// become dist/cli/bin.js plus a few chunks beside it (one for each `import()` of a command's action, and the code
// those share), so `june ask` loads a handful of modules where it loaded some 40. Only the CLI's own files are
// inlined. June's library (dist/chat, dist/runtime, ...) stays where tsc put it, imported by relative path, so the
// CLI and a user's module that imports `june/chat` share one copy of every class, marker and module-level state;
// every package (the AI SDK, citty, tsx, ...) stays external too. The chunks sit in dist/cli itself, so the CLI's
// `import.meta.url`-relative paths (`../../package.json`, `../index.js`) and its relative imports of the library
// mean what they meant. tsc's other files in dist/cli are removed: nothing else may load a second copy of the CLI.
// Source maps are chained through tsc's, so a stack trace still points into src/cli.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const cliDir = join(dist, "cli");
const outDir = mkdtempSync(join(dist, ".cli-bundle-"));

/** True for a file of the CLI's own (inlined); everything else under dist/ is the library (left external). */
const isCliFile = (path) => path.startsWith(cliDir + sep);

try {
  const { metafile } = await build({
    entryPoints: [join(cliDir, "bin.js")],
    absWorkingDir: root,
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    metafile: true,
    chunkNames: "[name]-[hash]",
    plugins: [
      {
        name: "june-library-external",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === "entry-point") return undefined;
            // Every package, and node: builtins: external, as written.
            if (!args.path.startsWith(".") && !args.path.startsWith("/")) return { external: true };
            const path = resolve(args.resolveDir, args.path);
            // A package's own relative imports, and the CLI's own files: bundled.
            if (!path.startsWith(dist + sep) || isCliFile(path)) return undefined;
            // The library: the same file, by a path relative to dist/cli, where every output lands.
            const fromCli = relative(cliDir, path).split(sep).join("/");
            return { path: fromCli.startsWith(".") ? fromCli : `./${fromCli}`, external: true };
          });
        },
      },
    ],
  });
  // The guard of one copy: nothing but the CLI's own files was inlined.
  const inlined = Object.keys(metafile.inputs).filter((input) => !isCliFile(resolve(root, input)));
  if (inlined.length > 0) throw new Error(`bundle-cli: the CLI bundle would inline files that are not the CLI's own: ${inlined.join(", ")}`);
  // Nothing in dist/cli but the bundle (and tsc's declarations).
  removeScripts(cliDir);
  for (const name of readdirSync(outDir)) renameSync(join(outDir, name), join(cliDir, name));
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function removeScripts(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeScripts(path);
    else if (/\.js(\.map)?$/.test(name)) rmSync(path);
  }
}
