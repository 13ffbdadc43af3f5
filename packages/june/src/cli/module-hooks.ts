/**
 * The Node module hooks (`module.register`) that let `june` load a user's module as it is, wherever it
 * lives. They run in Node's hooks thread, so they are one plain JavaScript source registered as a `data:`
 * URL (`JUNE_HOOKS`). Every import after registration makes a round trip to that thread, so the CLI
 * imports what it can before registering (see `load-module.ts`), and the hooks do as little as they can:
 *
 * - `june` and `june/*` resolve to the package running the CLI, from any directory, so the module and the
 *   CLI share one copy of June (no other hook is asked).
 * - tsx (TypeScript, JSX) is started in the hooks thread only when something needs it: a TypeScript or JSX
 *   file (`.ts`, `.tsx`, `.mts`, `.cts`, `.jsx`), an import Node cannot resolve by itself (tsx resolves
 *   `./helper` and `./helper.js` to `helper.ts`, directories to their index), a `.js` file outside
 *   `node_modules` in a CommonJS scope, a JSON file (tsx makes a module of it, and takes one imported
 *   without `with { type: "json" }`), or a module with a dynamic `import(` (tsx rewrites those). With a
 *   tsconfig.json in reach (tsx reads its `paths` and `allowJs`) it starts at once. Until it starts, Node
 *   resolves and loads on its own, which is what tsx would have returned for every other import; once
 *   started, everything goes through it, as with `tsx/esm/api`'s `register()`.
 * - `.tsx`/`.jsx` files outside `node_modules` that name no JSX runtime of their own get
 *   `@jsxRuntime automatic` and `@jsxImportSource june` (added to the source tsx asks for), so JSX becomes
 *   June elements with no tsconfig.
 * - TypeScript and JSX files outside `node_modules` load as ES modules even where the nearest
 *   `package.json` says CommonJS (a file in /tmp, say), since June itself is ESM-only.
 * - A bare import the module's directory cannot resolve (`ai` from a file in /tmp) falls back to June's own
 *   dependencies.
 */

/** Data passed to `JUNE_HOOKS`' `initialize`. */
export interface JuneHooksData {
  /**
   * Every export of this package, resolved before any hook ran: `{ "june": "file:///…/dist/index.js",
   * "june/chat": … }`. Resolved here, not in the hook, so no tsconfig `paths` (tsx honors them) can send
   * `june` elsewhere.
   */
  exports: Record<string, string>;
  /** A file URL inside this package; any other `june/*` is resolved as a self-reference from it. */
  anchorUrl: string;
  /** tsx's hooks module (`tsx/esm`), as a file URL. */
  tsxUrl: string;
  /**
   * Start tsx at once, in the background (the module is TypeScript or JSX, or a tsconfig.json is in
   * reach), rather than on the first import that needs it.
   */
  startTsx: boolean;
}

export const JUNE_HOOKS = `
let anchorUrl;
let exportsMap = {};
let tsxUrl;
let tsxDir;
let tsx;
let tsxStarting;

export async function initialize(data) {
  anchorUrl = data.anchorUrl;
  exportsMap = data.exports;
  tsxUrl = data.tsxUrl;
  tsxDir = new URL("../", tsxUrl).href;
  // In the background: the main thread has June's own modules to load meanwhile.
  if (data.startTsx) startTsx().catch(() => {});
}

/**
 * Imports and initializes tsx's hooks, once; as \`tsx/esm/api\`'s register() would, with no namespace.
 * This thread's own imports go through these hooks too: tsx's modules, asked for while it starts, are
 * resolved and loaded by Node alone (\`ownUrls\`).
 */
function startTsx() {
  tsxStarting ??= import(tsxUrl).then(async (hooks) => {
    await hooks.initialize({});
    tsx = hooks;
  });
  return tsxStarting;
}

const TS_FILE = /\\.(ts|tsx|mts|cts|jsx)$/;
const SOURCE_FILE = /\\.(ts|tsx|mts|jsx)$/;
const JSX_FILE = /\\.(tsx|jsx)$/;
const HAS_PRAGMA = /@jsx(ImportSource|Runtime|Frag)?\\s/;
const BARE = /^(?![./]|[a-z][a-z0-9+.-]*:)/i;
const DYNAMIC_IMPORT = /\\bimport\\s*\\(/;
const ATTRIBUTE_ERRORS = new Set(["ERR_IMPORT_ATTRIBUTE_MISSING", "ERR_IMPORT_ASSERTION_TYPE_MISSING"]);

function pathOf(url) {
  return url.startsWith("file:") ? new URL(url).pathname : "";
}

/** A resolution Node made on its own that tsx would have made differently. */
function wantsTsx(result) {
  if (!result.url.startsWith("file:")) return false;
  const path = pathOf(result.url);
  if (TS_FILE.test(path)) return true;
  return path.endsWith(".js") && !result.url.includes("/node_modules/") && result.format !== "module";
}

function isJune(specifier) {
  return specifier === "june" || specifier.startsWith("june/");
}

/** The modules tsx's start imports (from this module, or from a module it imported). */
const ownUrls = new Set();

// Node merges the context given to a next hook into the one every hook of the chain shares, and tsx sets
// its parentURL: each call gets a fresh copy of the context this hook was given.
export async function resolve(specifier, context, nextResolve) {
  const base = { ...context };
  const parent = base.parentURL;
  if (!tsx && parent !== undefined && (parent === import.meta.url || parent.startsWith(tsxDir) || ownUrls.has(parent))) {
    const result = await nextResolve(specifier, { ...base });
    ownUrls.add(result.url);
    return result;
  }
  if (!tsx && tsxStarting) await tsxStarting;
  if (isJune(specifier)) {
    const url = exportsMap[specifier];
    if (url) return { url, format: url.endsWith(".json") ? "json" : "module", shortCircuit: true };
    const next = tsx ? (s, c) => tsx.resolve(s, c, nextResolve) : nextResolve;
    return next(specifier, { ...base, parentURL: anchorUrl });
  }
  if (!tsx) {
    const plain = await resolvePlain(specifier, base, nextResolve);
    if (plain) return plain;
    await startTsx();
  }
  return resolveWithTsx(specifier, base, nextResolve);
}

/** Node's own resolution while tsx has not started, or undefined when tsx is needed. */
async function resolvePlain(specifier, base, nextResolve) {
  let result;
  try {
    result = await nextResolve(specifier, { ...base });
  } catch (error) {
    // A package the module's directory does not have at all (tsx would not find it either, with no
    // tsconfig): June's own dependencies, as below. Anything else is tsx's to try.
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !BARE.test(specifier) || error.url || !/^Cannot find package /.test(error.message)) {
      return undefined;
    }
    try {
      result = await nextResolve(specifier, { ...base, parentURL: anchorUrl });
    } catch {
      return undefined;
    }
  }
  return wantsTsx(result) ? undefined : result;
}

async function resolveWithTsx(specifier, base, nextResolve) {
  const next = (s, c) => tsx.resolve(s, c, nextResolve);
  let result;
  try {
    result = await next(specifier, { ...base });
  } catch (error) {
    // A bare import the module's own directory cannot resolve (\`ai\` in a file in /tmp, say): June's own
    // dependencies are the ones it was written against.
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !BARE.test(specifier)) throw error;
    try {
      result = await next(specifier, { ...base, parentURL: anchorUrl });
    } catch {
      throw error;
    }
  }
  if (
    result.url.startsWith("file:") &&
    !result.url.includes("/node_modules/") &&
    SOURCE_FILE.test(pathOf(result.url)) &&
    (result.format == null || result.format === "commonjs" || result.format === "commonjs-typescript")
  ) {
    return { ...result, format: "module-typescript" };
  }
  return result;
}

export async function load(url, context, nextLoad) {
  if (!tsx && ownUrls.has(url)) return nextLoad(url, context);
  if (!tsx && tsxStarting) await tsxStarting;
  if (!tsx) {
    if (TS_FILE.test(pathOf(url))) {
      await startTsx();
    } else {
      let result;
      try {
        result = await nextLoad(url, context);
      } catch (error) {
        if (!ATTRIBUTE_ERRORS.has(error?.code)) throw error;
      }
      if (result && !loadWantsTsx(result)) return result;
      await startTsx();
    }
  }
  return tsx.load(url, context, (u, c) => loadWithPragma(u, c, nextLoad));
}

/** What tsx would have changed: JSON (it makes a module of it), a module's dynamic imports (it rewrites them). */
function loadWantsTsx(result) {
  if (result.format === "json") return true;
  return result.format === "module" && result.source != null && DYNAMIC_IMPORT.test(text(result.source));
}

function text(source) {
  return typeof source === "string" ? source : new TextDecoder().decode(source);
}

/** Puts the JSX pragma on a .tsx/.jsx file outside node_modules that names no JSX runtime (tsx then compiles it). */
async function loadWithPragma(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:") || url.includes("/node_modules/") || result.source == null) return result;
  if (!JSX_FILE.test(pathOf(url))) return result;
  const source = text(result.source);
  if (HAS_PRAGMA.test(source)) return result;
  const pragma = "/** @jsxRuntime automatic @jsxImportSource june */ ";
  if (!source.startsWith("#!")) return { ...result, source: pragma + source };
  const newline = source.indexOf("\\n") + 1 || source.length;
  return { ...result, source: source.slice(0, newline) + pragma + source.slice(newline) };
}
`;

/** A hook source as a `data:` URL for `module.register`. */
export function hookUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
