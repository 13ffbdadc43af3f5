import { existsSync, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createRequire, register } from "node:module";
import { basename, dirname, extname, isAbsolute, join, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { LanguageModel } from "ai";
import type { Chat, ChatFactory, Responder } from "../chat/types.js";
import { isElement, type JuneElement } from "../jsx/element.js";
import { looksLikeModule, MODULE_EXTENSIONS } from "./args.js";
import { valueKind } from "../errors/value-kind.js";
import { ModuleLoadError } from "./errors.js";
import { hookUrl, JUNE_HOOKS, type JuneHooksData } from "./module-hooks.js";
import { isPlainModuleGraph } from "./plain-module-graph.js";

let hooksInstalled = false;
let exportsCache: Record<string, string> | undefined;
let specifiersCache: Set<string> | undefined;
const entryPointCache = new Map<string, string | undefined>();

/** Files tsx must compile. */
const TYPESCRIPT_FILE = /\.(ts|tsx|mts|cts|jsx)$/i;

export interface InstallModuleHooksOptions {
  /**
   * Start tsx in the hooks thread now, in the background, rather than on the first import that needs it:
   * the module is TypeScript or JSX, or a tsconfig.json is in reach.
   */
  startTsx: boolean;
}

/**
 * Installs, once per process, what loads a user's module as it is: June's module hooks, which resolve
 * `june` and run tsx (TypeScript, JSX) in the hooks thread when a file needs it (see `module-hooks.ts`).
 * Every `import` after this makes a round trip to the hooks thread.
 */
export function installModuleHooks(options: InstallModuleHooksOptions): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  const data: JuneHooksData = {
    exports: packageExports(),
    anchorUrl: new URL("../index.js", import.meta.url).href,
    tsxUrl: import.meta.resolve("tsx/esm"),
    startTsx: options.startTsx,
  };
  register(hookUrl(JUNE_HOOKS), { data });
}

/** The specifiers of this package's exports (`june`, `june/chat`, ...; wildcards left out). */
function exportedSpecifiers(): Set<string> {
  if (specifiersCache) return specifiersCache;
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    name: string;
    exports?: Record<string, unknown>;
  };
  const specifiers = new Set<string>();
  for (const key of Object.keys(pkg.exports ?? {})) {
    if (key.includes("*") || !key.startsWith(".")) continue;
    specifiers.add(key === "." ? pkg.name : `${pkg.name}${key.slice(1)}`);
  }
  specifiersCache = specifiers;
  return specifiers;
}

/**
 * One of this package's exports (`june/chat`) resolved from the package itself (a self-reference), once; undefined
 * for a specifier it does not export, or an entry that does not resolve (not built yet). Resolved before any hook is
 * registered.
 */
function ownEntryPoint(specifier: string): string | undefined {
  if (exportsCache) return exportsCache[specifier];
  if (entryPointCache.has(specifier)) return entryPointCache.get(specifier);
  let url: string | undefined;
  if (exportedSpecifiers().has(specifier)) {
    try {
      url = import.meta.resolve(specifier);
    } catch {
      // An entry that does not resolve (not built yet): the hook falls back to a self-reference.
    }
  }
  entryPointCache.set(specifier, url);
  return url;
}

/**
 * Every export of this package (`june`, `june/chat`, ...) resolved as `ownEntryPoint` does: what the hooks
 * need. The plain path asks only for the few a module imports (each resolution costs ~0.1 ms).
 */
function packageExports(): Record<string, string> {
  if (exportsCache) return exportsCache;
  const out: Record<string, string> = {};
  for (const specifier of exportedSpecifiers()) {
    const url = ownEntryPoint(specifier);
    if (url !== undefined) out[specifier] = url;
  }
  exportsCache = out;
  return out;
}

/**
 * True when tsx, started in `dir`, would find a tsconfig.json (it looks in the directory and every parent,
 * or at `TSX_TSCONFIG_PATH`): its `paths` and `allowJs` change how even JavaScript imports resolve, so
 * the hooks then start tsx at once.
 */
export function tsconfigInReach(dir: string, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.TSX_TSCONFIG_PATH) return true;
  for (let current = resolvePath(dir); ; current = dirname(current)) {
    if (existsSync(join(current, "tsconfig.json"))) return true;
    if (dirname(current) === current) return false;
  }
}

/** Static imports and re-exports of `june` and `june/*` (`import type` ones flagged). */
const JUNE_IMPORT = /\b(?:import|export)(\s+type\b)?(?:[^"'`;]*?\bfrom)?\s*["'](june(?:\/[\w./-]*)?)["']/g;

/**
 * The `june` entry points a module's source imports statically (by a plain scan: a miss only costs time),
 * and `june/jsx-runtime` for a file that may hold JSX. Type-only imports and dynamic `import()`s are left out.
 */
export function juneImportsOf(source: string, file: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(JUNE_IMPORT)) {
    if (match[1] === undefined) found.add(match[2]!);
  }
  if ([".tsx", ".jsx"].includes(extname(file).toLowerCase())) found.add("june/jsx-runtime");
  return [...found];
}

/**
 * The module's `june` entry points (`juneImportsOf`), as file URLs of this package, to import before the
 * module: the hook resolves the module's own `june` imports to these same URLs, so it gets these same
 * instances, and they load on this thread alone (every module of their graph, June, the AI SDK, zod,
 * would otherwise make a round trip to the hooks thread).
 */
function juneEntryPoints(source: string | undefined, path: string): string[] {
  if (source === undefined) return [];
  return juneImportsOf(source, path).flatMap((specifier) => {
    const url = ownEntryPoint(specifier);
    return url === undefined ? [] : [url];
  });
}

/** True when `require()` loads ES modules (Node 20.19 and later, unless turned off). */
function requireLoadsEsm(): boolean {
  return (process.features as { require_module?: boolean }).require_module === true;
}

/**
 * Gets everything ready to import the module at `path`, once per process. A JavaScript module whose
 * whole graph Node resolves alone as the hooks would (`isPlainModuleGraph`) needs nothing. Otherwise:
 * registers the module hooks (starting tsx in the background when the module is TypeScript or JSX, or a tsconfig.json is in reach)
 * and loads the June entry points the module imports. They load with `require()`, which the hooks do not
 * see, so the main thread loads them while the hooks thread starts tsx; where `require()` cannot load ES
 * modules, they are imported before the hooks are registered instead. A failure is left for the module's
 * own import to report. Then source maps are turned on, as tsx's own `register()` does, so a module's
 * stack traces point into its source.
 */
async function prepareModuleLoading(path: string): Promise<void> {
  const source = await readFile(path, "utf8").catch(() => undefined);
  const startTsx = TYPESCRIPT_FILE.test(path) || tsconfigInReach(process.cwd(), process.env);
  // Node alone loads it as the hooks would: no hooks thread to start and no round trip per import. Source maps
  // stay off too (turning them on parses the map of every module loaded after, the AI SDK's 1.1 MB among them).
  if (!startTsx && source !== undefined && isPlainModuleGraph({ path, source, ownEntryPoint })) return;
  const entryPoints = juneEntryPoints(source, path);
  if (requireLoadsEsm()) {
    installModuleHooks({ startTsx });
    const require = createRequire(import.meta.url);
    for (const url of entryPoints) {
      try {
        require(fileURLToPath(url));
      } catch {
        // The module's own import reports it.
      }
    }
  } else {
    await Promise.all(entryPoints.map((url) => import(url).catch(() => undefined)));
    installModuleHooks({ startTsx });
  }
  process.setSourceMapsEnabled(true);
}

export interface ImportModuleOptions {
  /** The file as given on the command line. */
  file: string;
  cwd: string;
}

/**
 * Imports a `.ts`, `.tsx`, `.js` or `.mjs` module with no build step. A missing file, a wrong extension or
 * a module that throws while loading is a `ModuleLoadError` with one line that names the file.
 */
export async function importModule(options: ImportModuleOptions): Promise<Record<string, unknown>> {
  const { file } = options;
  if (!looksLikeModule(file)) {
    throw new ModuleLoadError(`${file}: expected a ${MODULE_EXTENSIONS.join(", ")} module`, { file });
  }
  const path = isAbsolute(file) ? file : resolvePath(options.cwd, file);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ModuleLoadError(`${file}: no such file`, { file });
  if (!info.isFile()) throw new ModuleLoadError(`${file}: not a file`, { file });
  if (!hooksInstalled) await prepareModuleLoading(path);
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ModuleLoadError(`${file} failed to load: ${firstLine(error)}`, { file, cause: error });
  }
}

/** The first informative line of a load error (esbuild's own first line is only "Transform failed"). */
export function firstLine(error: unknown): string {
  const name = error instanceof Error && error.name !== "Error" ? `${error.name}: ` : "";
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split("\n").map((line) => line.trim()).filter((line) => line.length > 0);
  const esbuild = lines.find((line) => /\bERROR: /.test(line));
  if (esbuild) {
    const located = /^(.*?):(\d+):(\d+): ERROR: (.*)$/.exec(esbuild);
    if (located) return `${located[4]} (${basename(located[1]!)}:${located[2]}:${located[3]})`;
    return esbuild.replace(/^.*?\bERROR: /, "");
  }
  return `${name}${lines[0] ?? "unknown error"}`;
}

/** What `june chat`, `ask` and `studio` accept as a module's default export. */
export type ChatModuleExport =
  | { kind: "chat"; chat: Chat }
  | { kind: "responder"; responder: Responder }
  | { kind: "factory"; factory: ChatFactory };

/** What a chat factory made of its `{ model }`. */
export type ChatFactoryResult = { kind: "chat"; chat: Chat } | { kind: "responder"; responder: Responder };

/** The props `june run` gives a component: `--input`, and the `--model` model when one is given. */
export interface RunComponentProps {
  input: string;
  model?: LanguageModel;
}

/**
 * What `june run` accepts as a module's default export; `script` for a module with none, which ran its own
 * workflow (a `start()` of its own) when it was imported.
 */
export type RunModuleExport =
  | { kind: "element"; element: JuneElement }
  | { kind: "component"; component: (props: RunComponentProps) => unknown }
  | { kind: "script" };

const CHAT_EXPECTED =
  "a Chat (createChat(...)), a Responder (an object with respond()) or a function ({ model }) => either";
const FACTORY_EXPECTED = "a Chat (createChat(...)) or a Responder (an object with respond())";
const RUN_EXPECTED = "a workflow element (<Agent>...</Agent>) or a component that takes { input, model }";

/**
 * Loads a chat module: its default export must be a `Chat`, a `Responder`, or a `ChatFactory` (a function
 * of `{ model }` returning either; call it with `callChatFactory`).
 */
export async function loadChatModule(options: ImportModuleOptions): Promise<ChatModuleExport> {
  const value = await defaultExport(options, CHAT_EXPECTED);
  if (isChat(value)) return { kind: "chat", chat: value };
  if (isResponder(value)) return { kind: "responder", responder: value };
  if (typeof value === "function") return { kind: "factory", factory: value as ChatFactory };
  throw new ModuleLoadError(`${options.file}: the default export is ${exportKind(value)}; expected ${CHAT_EXPECTED}`, {
    file: options.file,
  });
}

export interface CallChatFactoryOptions {
  /** The file as given on the command line, for messages. */
  file: string;
  factory: ChatFactory;
  /** The `--model` model; the factory is called with `{}` without one. */
  model?: LanguageModel;
}

/**
 * Calls a chat module's factory with `{ model }` (or `{}`) and checks what it returns (awaited): a `Chat`
 * or a `Responder`. A factory that throws, rejects or returns anything else is a `ModuleLoadError`.
 */
export async function callChatFactory(options: CallChatFactoryOptions): Promise<ChatFactoryResult> {
  const { file } = options;
  let value: unknown;
  try {
    value = await options.factory(options.model === undefined ? {} : { model: options.model });
  } catch (error) {
    throw new ModuleLoadError(`${file}: the chat factory (its default export) threw: ${firstLine(error)}`, {
      file,
      cause: error,
    });
  }
  if (isChat(value)) return { kind: "chat", chat: value };
  if (isResponder(value)) return { kind: "responder", responder: value };
  const hint = isElement(value) ? " (to run a workflow once, use june run)" : "";
  throw new ModuleLoadError(
    `${file}: its default export, a function, was called as a chat factory ({ model }) and returned ${exportKind(value)}; expected ${FACTORY_EXPECTED}${hint}`,
    { file },
  );
}

/** Loads a workflow module: its default export must be an element or a component taking `{ input, model }`. */
export async function loadRunModule(options: ImportModuleOptions): Promise<RunModuleExport> {
  const module = await importModule(options);
  if (!("default" in module) || module.default === undefined) return { kind: "script" };
  const value = await defaultExport(options, RUN_EXPECTED, module);
  if (isElement(value)) return { kind: "element", element: value };
  if (typeof value === "function") {
    return { kind: "component", component: value as (props: RunComponentProps) => unknown };
  }
  const hint = isChat(value) || isResponder(value) ? " (to chat with it, use june chat or june ask)" : "";
  throw new ModuleLoadError(`${options.file}: the default export is ${exportKind(value)}; expected ${RUN_EXPECTED}${hint}`, {
    file: options.file,
  });
}

async function defaultExport(options: ImportModuleOptions, expected: string, imported?: Record<string, unknown>): Promise<unknown> {
  const module = imported ?? (await importModule(options));
  if (!("default" in module) || module.default === undefined) {
    throw new ModuleLoadError(`${options.file} has no default export; expected ${expected}`, { file: options.file });
  }
  let value: unknown = module.default;
  if (isThenable(value)) {
    try {
      value = await value;
    } catch (error) {
      throw new ModuleLoadError(`${options.file}: the default export rejected: ${firstLine(error)}`, {
        file: options.file,
        cause: error,
      });
    }
  }
  return value;
}

/** A `Chat` as `createChat` makes it (checked by shape, so any copy of June works). */
export function isChat(value: unknown): value is Chat {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Chat).createSession === "function" &&
    typeof (value as Chat).openSession === "function" &&
    typeof (value as Chat).listSessions === "function"
  );
}

/** A `Responder`: anything with a `respond()` method. */
export function isResponder(value: unknown): value is Responder {
  return typeof value === "object" && value !== null && typeof (value as Responder).respond === "function";
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

/** What a module exported, in the words of what a chat or run module may export. */
function exportKind(value: unknown): string {
  if (isElement(value)) return "a workflow element";
  if (isChat(value)) return "a Chat";
  if (isResponder(value)) return "a Responder";
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return "an object with neither respond() nor createSession()";
  return valueKind(value);
}
