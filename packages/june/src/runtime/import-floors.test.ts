/**
 * The floors of `src`, lowest first, and the runtime's place among them. Every import between two folders goes
 * down a floor (never sideways, never up), so no folder imports another both ways and the folders have no circle;
 * the runtime's own files have no circle either. `node scripts/import-picture.mjs` prints the arrows.
 *
 * The runtime is the lowest floor a model call goes through: it imports nothing from the layers built on it
 * (`chat/`, `server/`, `cli/`, `studio/`), and one module calls the AI SDK's `streamText`: the AI SDK version
 * adapter's (`ai-sdk/stream-model.ts`), the model engine's one way to a model. The same small walker as `server/import-graph.test.ts` (type-only imports
 * and re-exports count too).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, IMPORT, importsOf, sourceFiles } from "../__fixtures__/import-walker.js";

const runtime = dirname(fileURLToPath(import.meta.url));
const src = dirname(runtime);
const ABOVE = ["chat", "server", "cli", "studio"];
/** The tool sources: built on the runtime's protocol (`runtime/tool-source.ts`), never named by it. */
const SOURCES = ["mcp", "ask", "memory"];

/** The imports of `text` (a file at `file`) that reach a folder of `src` above the runtime, as `src`-relative paths. */
function upwardImports(file: string, text: string, above: readonly string[] = ABOVE): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (!spec?.startsWith(".")) continue;
    const target = relative(src, resolve(dirname(file), spec));
    if (above.includes(target.split(sep)[0]!)) out.push(`${relative(src, file)} -> ${target}`);
  }
  return out;
}

/** The source files of `src` that call `streamText(`. */
function streamTextCallers(): string[] {
  return sourceFiles(src)
    .filter((file) => /\bstreamText\(/.test(readFileSync(file, "utf8").replace(/^\s*(\/\/|\*).*$/gm, "")))
    .map((file) => relative(src, file));
}

/**
 * The folders of `src`, lowest floor first. A folder imports only folders on floors below its own; folders on
 * one floor do not import each other. The runtime uses the AI SDK adapter and telemetry below it, and
 * exposes its own spans (`runtime/run-spans.ts`) and the tool-source protocol (`runtime/tool-source.ts`) that
 * the sources above it implement (`mcp/`, `ask/`, `memory/`); a turn's spans are the chat's (`chat/turn-spans.ts`).
 */
const FLOORS: readonly (readonly string[])[] = [
  ["errors", "redaction", "jsx"],
  ["ai-sdk", "sdk"],
  ["cost", "guardrails"],
  ["telemetry"],
  ["runtime"],
  ["mcp", "ask", "memory"],
  ["stores"],
  ["chat"],
  ["learning", "testing"],
  ["server"],
  ["worker"],
  ["cli", "studio"],
  ["(root)"],
];

function floorOf(folder: string): number {
  const floor = FLOORS.findIndex((folders) => folders.includes(folder));
  if (floor < 0) throw new Error(`src/${folder} is on no floor: add it to FLOORS in runtime/import-floors.test.ts`);
  return floor;
}

/** The folder of `src` a path (relative to `src`) is in; `(root)` for the entry files beside the folders. */
function folderOf(path: string): string {
  const parts = path.split(sep);
  return parts.length > 1 ? parts[0]! : "(root)";
}

/** Every import from one folder of `src` to another, as `from -> to` with the files that make it. */
function folderArrows(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const arrows = new Map<string, string[]>();
  for (const file of files) {
    const from = folderOf(relative(src, file));
    for (const match of read(file).matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (!spec?.startsWith(".")) continue;
      const target = relative(src, resolve(dirname(file), spec));
      const to = folderOf(target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      arrows.set(key, [...(arrows.get(key) ?? []), `${relative(src, file)} -> ${target}`]);
    }
  }
  return arrows;
}

/** The arrows that do not go down a floor, each with the imports that make it. */
function wrongWay(arrows: Map<string, string[]>): string[] {
  return [...arrows]
    .filter(([key]) => {
      const [from, to] = key.split(" -> ") as [string, string];
      return floorOf(from) <= floorOf(to);
    })
    .map(([key, imports]) => `${key}: ${imports.join(", ")}`);
}

describe("src's floors", () => {
  it("every import between two folders goes down a floor (none up, none sideways, so no folder circle)", () => {
    const arrows = folderArrows(sourceFiles(src), (file) => readFileSync(file, "utf8"));
    expect(arrows.has("chat -> runtime")).toBe(true);
    expect(wrongWay(arrows)).toEqual([]);
  });

  it("finds an arrow up or sideways when there is one (the check can fail)", () => {
    const files = [join(src, "mcp", "a.ts"), join(src, "runtime", "b.ts"), join(src, "telemetry", "c.ts")];
    const text: Record<string, string> = {
      [files[0]!]: 'import { raceAbort } from "../runtime/scheduler.js";',
      [files[1]!]: 'import type { X } from "../stores/types.js";',
      [files[2]!]: 'export type { X } from "../ai-sdk/call-types.js";',
    };
    expect(wrongWay(folderArrows(files, (file) => text[file]!))).toEqual([`runtime -> stores: ${join("runtime", "b.ts")} -> ${join("stores", "types.js")}`]);
    expect(() => floorOf("newfolder")).toThrow(/no floor/);
  });

  it("the runtime's files import in one direction: no circle among them", () => {
    const files = sourceFiles(runtime);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    expect(circles(graph).map((circle) => circle.map((file) => relative(runtime, file)).join(" -> "))).toEqual([]);
    const a = join(runtime, "a.ts");
    const b = join(runtime, "b.ts");
    expect(circles(new Map([[a, [b]], [b, [a]]]))).toEqual([[a, b, a]]);
  });
});

describe("the runtime's floor", () => {
  it("imports nothing from chat/, server/, cli/ or studio/", () => {
    const files = sourceFiles(runtime);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => upwardImports(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("finds an upward import when there is one (the check can fail)", () => {
    const file = join(runtime, "message-excerpt.ts");
    expect(upwardImports(file, 'import { excerpt } from "../chat/trace/excerpt.js";\nimport type { X } from "./types.js";')).toEqual([
      `runtime${sep}message-excerpt.ts -> chat${sep}trace${sep}excerpt.js`,
    ]);
  });

  it("imports nothing from mcp/ or ask/, types included: its tool sources plug in by the protocol (issue 36)", () => {
    const files = sourceFiles(runtime);
    expect(files.flatMap((file) => upwardImports(file, readFileSync(file, "utf8"), SOURCES))).toEqual([]);
    const file = join(runtime, "render.ts");
    expect(upwardImports(file, 'import type { McpToolsOptions } from "../mcp/mcp-tools.js";\nimport { AskUser } from "../ask/ask-user.js";', SOURCES)).toEqual([
      `runtime${sep}render.ts -> mcp${sep}mcp-tools.js`,
      `runtime${sep}render.ts -> ask${sep}ask-user.js`,
    ]);
  });

  it("calls streamText in one module: the AI SDK adapter's, which the model engine's stream-model calls", () => {
    expect(streamTextCallers()).toEqual([join("ai-sdk", "stream-model.ts")]);
  });
});
