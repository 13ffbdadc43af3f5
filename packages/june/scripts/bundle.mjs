// Bundles the library after tsc (`npm run build`). One esbuild build whose entry points are every entry of the
// package's exports map (`june`, `june/chat`, `june/server`, ...) and the CLI (dist/cli/bin.js), with code
// splitting: each entry becomes the file the exports map names (so the map and bin/june.js stay valid), and what
// entries share, and what an `import()` loads, goes into chunks in dist/chunks/. Since it is ONE build, every
// class, marker and module-level state exists once across all entries: `june/chat`, `june/server`, the CLI and a
// user's module that imports them share one copy (instanceof across entries keeps working). Importing an entry
// loads a few files where it loaded some hundred of tsc's; the `import()`s decide what loads later (each of the
// CLI's commands is a chunk of its own, loaded when the command runs; fileStore's core on the store's first call).
// Every package (the AI SDK, zod, citty, tsx, ...) and node: builtin stays external.
//
// `import.meta.url`: a chunk is not its source file, so a relative `new URL("../…", import.meta.url)` means what it
// meant only where the output sits as deep under the package as the source's tsc output did. The chunks sit in
// dist/chunks/ (as deep as dist/cli/ and dist/server/), and the build fails if a file that makes such a URL lands
// at another depth. Resolutions by package name (`createRequire(import.meta.url)`, `import.meta.resolve`) work
// from anywhere in the package.
//
// tsc's per-file `.js` (and their maps) are removed from dist: nothing may load a second copy. Its `.d.ts` stay.
// Source maps are chained through tsc's, so a stack trace still points into src/.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const chunksDir = "chunks";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entryPoints = [
  ...new Set([
    ...Object.values(pkg.exports)
      .map((target) => (typeof target === "string" ? target : target.default))
      .filter((target) => typeof target === "string" && target.startsWith("./dist/") && target.endsWith(".js")),
    "./dist/cli/bin.js",
  ]),
].map((target) => join(root, target));

/** A relative file URL made from `import.meta.url`: its meaning depends on where the output sits. */
const RELATIVE_URL = /new URL\(\s*["']\.\.?\/[^"']*["']\s*,\s*import\.meta\.url\s*\)/;
/** How many folders below the package root a file sits (dist/cli/main.js: 2). */
const depth = (path) => relative(root, dirname(path)).split(sep).filter(Boolean).length;

/** The build's options, less the plugins. */
const options = {
  entryPoints,
  absWorkingDir: root,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  metafile: true,
  entryNames: "[dir]/[name]",
  chunkNames: `${chunksDir}/[name]-[hash]`,
};

// The chat's group. esbuild puts each module in the chunk of the exact set of entry points (the exports, the CLI
// and every `import()`'s target) that reach it, so some twenty entries cut June's chat path into some thirty
// files, and each file costs its load (about a millisecond, where one more KB costs some 50 µs). So every entry
// that reaches the chat's modules anyway also imports the chat's entry, for its side effects only: the chat's
// whole static graph then has one set of entries, and lands in a few chunks. Left out, so they stay small: the
// JSX runtimes, the model providers (`june/sdk/*`), `june/testing`, the CLI's own start (`june --help`), and
// `june/stream`, which browsers load (Studio, a user's UI): it must not pull the chat's Node modules into a page.
const HUB = join(dist, "chat/index.js");
const LEAN = new Set(["chat/stream/index.js", "jsx/jsx-runtime.js", "jsx/jsx-dev-runtime.js", "sdk/openai.js", "sdk/anthropic.js", "sdk/google.js", "sdk/openai-compatible.js", "testing/index.js", "cli/bin.js"].map((path) => join(dist, path)));
const probe = await build({ ...options, write: false, outdir: join(dist, ".probe") });
const dynamicTargets = Object.values(probe.metafile.inputs).flatMap((input) =>
  input.imports.filter((i) => i.kind === "dynamic-import" && !i.external).map((i) => resolve(root, i.path)),
);
const joiners = new Set([...entryPoints, ...dynamicTargets].filter((path) => path !== HUB && !LEAN.has(path)));
const chatGroup = {
  name: "june-chat-group",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!joiners.has(args.path)) return undefined;
      const hub = relative(dirname(args.path), HUB).split(sep).join("/");
      const line = `import ${JSON.stringify(hub.startsWith(".") ? hub : `./${hub}`)};\n`;
      const source = readFileSync(args.path, "utf8");
      // Before tsc's source map comment, so it stays the file's last line and every mapping stays where it was.
      const at = source.lastIndexOf("//# sourceMappingURL=");
      const contents = at === -1 ? `${source}\n${line}` : `${source.slice(0, at)}${line}${source.slice(at)}`;
      return { contents, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

// Beside dist, as deep: the chained source maps name src/ by paths relative to each output, which must hold once
// the outputs move into dist.
const outDir = mkdtempSync(join(root, ".bundle-"));
try {
  const { metafile } = await build({ ...options, outdir: outDir, plugins: [chatGroup] });
  // The guard of the relative URLs (see above): each output that inlines a file making one sits at that file's depth.
  const misplaced = [];
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith(".js")) continue;
    const placed = join(dist, relative(outDir, resolve(root, output)));
    for (const input of Object.keys(inputs)) {
      const source = resolve(root, input);
      if (depth(source) !== depth(placed) && RELATIVE_URL.test(readFileSync(source, "utf8"))) {
        misplaced.push(`${relative(root, source)} -> ${relative(root, placed)}`);
      }
    }
  }
  if (misplaced.length > 0) {
    throw new Error(`bundle: a relative import.meta.url would change meaning (move it, or resolve by package name): ${misplaced.join(", ")}`);
  }
  // Nothing in dist but the bundle and tsc's declarations.
  removeScripts(dist);
  moveInto(outDir, dist);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function removeScripts(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      removeScripts(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (/\.js(\.map)?$/.test(name)) rmSync(path);
  }
}

function moveInto(from, to) {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory() && existsDir(target)) moveInto(source, target);
    else renameSync(source, target);
  }
}

function existsDir(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
