import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Static `import … from "x"`, `import "x"` and `export … from "x"` statements. A scan, not a parser: what it
 * cannot account for (see `countImportKeywords`) sends the module to the hooks.
 */
const STATIC_IMPORT = /\b(import|export)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["']([^"'\n]+)["']/g;
/** Every `import` keyword but `import.meta`: static imports, dynamic `import(`, and the word in comments or strings. */
const IMPORT_KEYWORD = /\bimport\b(?!\s*\.\s*meta\b)/g;
/** Ways a module can load code the scan does not see. */
const HIDDEN_LOADS = /\b(?:require|createRequire|importScripts)\b/;
const TYPESCRIPT_OR_JSON = /\.(ts|tsx|mts|cts|jsx|json)$/i;
/** A module graph larger than this is left to the hooks (the walk is meant to cost well under a millisecond). */
const MAX_FILES = 64;

export interface PlainModuleGraphOptions {
  /** The module's absolute path. */
  path: string;
  /** Its source, already read. */
  source: string;
  /**
   * `june`, `june/chat`, … as this package resolves them (a file URL; undefined for one it does not export),
   * which the module's imports must reach.
   */
  ownEntryPoint: (specifier: string) => string | undefined;
}

/**
 * True when Node alone loads the JavaScript module at `path` exactly as June's module hooks would: every
 * file of its own graph (outside `node_modules`) is an ES module (`.mjs`, or `.js` in a `"type": "module"`
 * scope) with only static imports, each of which Node resolves to an existing JavaScript file — `june` and
 * `june/*` to this package's own files, packages from the module's directory. Then `june ask` skips the
 * hooks, whose registration blocks until their thread starts and after which every import of the graph
 * (June, the AI SDK, zod) makes a round trip to that thread. Anything the scan cannot vouch for (a dynamic
 * `import(`, `require`, a directory or extensionless import, JSON, TypeScript, a `june` that is another
 * copy, a package only June's own dependencies have) answers false, and the hooks load the module as before.
 */
export function isPlainModuleGraph(options: PlainModuleGraphOptions): boolean {
  const scopes = new Map<string, boolean>();
  const seen = new Set<string>([options.path]);
  const pending: { path: string; source: string }[] = [{ path: options.path, source: options.source }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!isEsmFile(next.path, scopes)) return false;
    const specifiers = staticImports(next.source);
    if (specifiers === undefined) return false;
    for (const specifier of specifiers) {
      const target = resolvePlain(specifier, next.path, options.ownEntryPoint);
      if (target === false) return false;
      if (target === true || seen.has(target)) continue;
      if (seen.size >= MAX_FILES) return false;
      seen.add(target);
      let source: string;
      try {
        source = readFileSync(target, "utf8");
      } catch {
        return false;
      }
      pending.push({ path: target, source });
    }
  }
  return true;
}

/** The module's static import specifiers, or undefined when it may load code some other way. */
function staticImports(source: string): string[] | undefined {
  if (HIDDEN_LOADS.test(source)) return undefined;
  const specifiers: string[] = [];
  let imports = 0;
  for (const match of source.matchAll(STATIC_IMPORT)) {
    specifiers.push(match[2]!);
    if (match[1] === "import") imports++;
  }
  return countImportKeywords(source) === imports ? specifiers : undefined;
}

function countImportKeywords(source: string): number {
  let count = 0;
  for (const _ of source.matchAll(IMPORT_KEYWORD)) count++;
  return count;
}

/**
 * Where Node resolves `specifier` from `from` with no hooks: a local module to scan next (its path), true
 * for one that needs no scan (a built-in, a file in `node_modules`, CommonJS), false when the hooks must
 * load it.
 */
function resolvePlain(specifier: string, from: string, ownEntryPoint: (specifier: string) => string | undefined): string | boolean {
  if (specifier.startsWith("node:") || isBuiltin(specifier)) return true;
  if (/[?#]/.test(specifier)) return false;
  if (specifier === "june" || specifier.startsWith("june/")) {
    const own = ownEntryPoint(specifier);
    const found = requireResolve(specifier, from);
    // Compared as real paths, as Node names ES modules (a workspace links node_modules/june to the package).
    const real = found === undefined ? undefined : realPath(found);
    return own !== undefined && real !== undefined && real === realPath(fileURLToPath(own));
  }
  let path: string;
  if (specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/")) {
    path = specifier.startsWith("/") ? specifier : fileURLToPath(new URL(specifier, pathToFileURL(from)));
  } else if (specifier.startsWith("file:")) {
    path = fileURLToPath(specifier);
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(specifier) || specifier.startsWith("#")) {
    return false;
  } else {
    const resolved = requireResolve(specifier, from);
    return resolved !== undefined && !TYPESCRIPT_OR_JSON.test(resolved);
  }
  if (!isFile(path)) return false;
  const ext = extname(path).toLowerCase();
  if (ext === ".cjs") return true;
  if (ext !== ".js" && ext !== ".mjs") return false;
  return path.includes("/node_modules/") ? true : path;
}

function requireResolve(specifier: string, from: string): string | undefined {
  try {
    return createRequire(from).resolve(specifier);
  } catch {
    return undefined;
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `.mjs`, or `.js` whose nearest package.json says `"type": "module"` (as Node decides). */
function isEsmFile(path: string, scopes: Map<string, boolean>): boolean {
  const ext = extname(path).toLowerCase();
  if (ext === ".mjs") return true;
  if (ext !== ".js") return false;
  return moduleScope(dirname(path), scopes);
}

function moduleScope(dir: string, scopes: Map<string, boolean>): boolean {
  const known = scopes.get(dir);
  if (known !== undefined) return known;
  const manifest = join(dir, "package.json");
  let result: boolean;
  if (existsSync(manifest)) {
    try {
      result = (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module";
    } catch {
      result = false;
    }
  } else {
    result = dirname(dir) === dir ? false : moduleScope(dirname(dir), scopes);
  }
  scopes.set(dir, result);
  return result;
}
