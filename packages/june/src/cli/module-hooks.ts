/**
 * Node module hooks (`module.register`) that let `june` load a user's module as it is, wherever it
 * lives. They run in Node's hooks thread, so they are plain JavaScript sources registered as `data:` URLs.
 *
 * - `JSX_PRAGMA_HOOK` (registered before tsx, so it runs after tsx asked for the source): puts
 *   `@jsxRuntime automatic` and `@jsxImportSource june` on `.tsx`/`.jsx` files outside `node_modules`
 *   that name no JSX runtime of their own, so JSX becomes June elements with no tsconfig.
 * - `JUNE_RESOLVE_HOOK` (registered after tsx, so it runs first): resolves `june` and `june/*` to the
 *   package running the CLI, from any directory, so the module and the CLI share one copy of June; and
 *   loads TypeScript and JSX files outside `node_modules` as ES modules even where the nearest
 *   `package.json` says CommonJS (a file in /tmp, say), since June itself is ESM-only. A bare import the
 *   module's directory cannot resolve (`ai` from a file in /tmp) falls back to June's own dependencies.
 */

/** Data passed to `JUNE_RESOLVE_HOOK`'s `initialize`. */
export interface JuneResolveHookData {
  /**
   * Every export of this package, resolved before any hook ran: `{ "june": "file:///…/dist/index.js",
   * "june/chat": … }`. Resolved here, not in the hook, so no tsconfig `paths` (tsx honors them) can send
   * `june` elsewhere.
   */
  exports: Record<string, string>;
  /** A file URL inside this package; any other `june/*` is resolved as a self-reference from it. */
  anchorUrl: string;
}

export const JSX_PRAGMA_HOOK = `
const JSX_FILE = /\\.(tsx|jsx)$/;
const HAS_PRAGMA = /@jsx(ImportSource|Runtime|Frag)?\\s/;
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:") || url.includes("/node_modules/") || result.source == null) return result;
  if (!JSX_FILE.test(new URL(url).pathname)) return result;
  const source = typeof result.source === "string" ? result.source : new TextDecoder().decode(result.source);
  if (HAS_PRAGMA.test(source)) return result;
  const pragma = "/** @jsxRuntime automatic @jsxImportSource june */ ";
  if (!source.startsWith("#!")) return { ...result, source: pragma + source };
  const newline = source.indexOf("\\n") + 1 || source.length;
  return { ...result, source: source.slice(0, newline) + pragma + source.slice(newline) };
}
`;

export const JUNE_RESOLVE_HOOK = `
let anchorUrl;
let exportsMap = {};
export function initialize(data) {
  anchorUrl = data.anchorUrl;
  exportsMap = data.exports;
}
const SOURCE_FILE = /\\.(ts|tsx|mts|jsx)$/;
const BARE = /^(?![./]|[a-z][a-z0-9+.-]*:)/i;
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "june" || specifier.startsWith("june/")) {
    const url = exportsMap[specifier];
    if (url) return { url, format: url.endsWith(".json") ? "json" : "module", shortCircuit: true };
    return nextResolve(specifier, { ...context, parentURL: anchorUrl });
  }
  let result;
  try {
    result = await nextResolve(specifier, context);
  } catch (error) {
    // A bare import the module's own directory cannot resolve (\`ai\` in a file in /tmp, say): June's own
    // dependencies are the ones it was written against.
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !BARE.test(specifier)) throw error;
    try {
      result = await nextResolve(specifier, { ...context, parentURL: anchorUrl });
    } catch {
      throw error;
    }
  }
  if (
    result.url.startsWith("file:") &&
    !result.url.includes("/node_modules/") &&
    SOURCE_FILE.test(new URL(result.url).pathname) &&
    (result.format == null || result.format === "commonjs" || result.format === "commonjs-typescript")
  ) {
    return { ...result, format: "module-typescript" };
  }
  return result;
}
`;

/** A hook source as a `data:` URL for `module.register`. */
export function hookUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`;
}
