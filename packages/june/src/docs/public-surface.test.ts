/**
 * June's public surface, read from the entries of package.json's exports map (their source, through the
 * TypeScript checker, so type and value names both count): `june/chat` exports at most 80 names, no name is
 * exported by two entries (the JSX runtime's entries aside, and `june/sdk/*`, each of which is an AI SDK
 * provider's module as is, its names the provider's: every one has a `VERSION`), and docs/api.md lists every
 * entry, who it is for, and exactly the names it exports.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const apiPage = resolve(packageDir, "../../docs/api.md");
const JSX_ENTRIES = new Set(["june/jsx-runtime", "june/jsx-dev-runtime"]);
/** `june/sdk/openai` and its kind: an AI SDK provider package's own names, re-exported as they are. */
const PROVIDER_ENTRY = /^june\/sdk\//;
const MAX_CHAT_NAMES = 80;

/** Each entry's name (`june/chat`) and source file, from the exports map's `types` targets. */
function entries(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { exports: Record<string, string | { types: string }> };
  const out = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue;
    const base = join(packageDir, "src", target.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ""));
    const file = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
    if (!file) throw new Error(`${subpath}: no source for ${target.types}`);
    out.set(subpath === "." ? "june" : `june/${subpath.slice(2)}`, file);
  }
  return out;
}

/** The names each entry exports that are June's own (declared in June's source). */
function exportedNames(files: Map<string, string>): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(packageDir, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  })!;
  const program = ts.createProgram([...files.values()], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const src = join(packageDir, "src");
  const out = new Map<string, string[]>();
  for (const [entry, file] of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const names = checker
      .getExportsOfModule(module)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return (target.declarations ?? []).some((declaration) => resolve(declaration.getSourceFile().fileName).startsWith(src));
      })
      .map((symbol) => symbol.name)
      .sort();
    out.set(entry, names);
  }
  return out;
}

/** docs/api.md's entries: each `## \`june/…\`` section's `Exports:` names. */
function documented(page: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of page.split(/^## /m).slice(1)) {
    const entry = /^`([^`]+)`/.exec(section)?.[1];
    const line = section.split("\n").find((text) => text.startsWith("Exports:"));
    if (!entry) continue;
    out.set(entry, line ? [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).sort() : []);
  }
  return out;
}

/** The names exported by two entries or more, with the entries. */
function duplicates(names: Map<string, string[]>): string[] {
  const owners = new Map<string, string[]>();
  for (const [entry, list] of names) {
    if (JSX_ENTRIES.has(entry) || PROVIDER_ENTRY.test(entry)) continue;
    for (const name of list) owners.set(name, [...(owners.get(name) ?? []), entry]);
  }
  return [...owners].filter(([, list]) => list.length > 1).map(([name, list]) => `${name}: ${list.join(", ")}`);
}

describe("the public surface", () => {
  const files = entries();
  const names = exportedNames(files);
  // `JUNE_SURFACE_OUT=file npx vitest run src/docs/public-surface.test.ts` writes every entry's names as JSON:
  // what docs/api.md's "Exports:" lines list.
  if (process.env.JUNE_SURFACE_OUT) writeFileSync(process.env.JUNE_SURFACE_OUT, JSON.stringify(Object.fromEntries(names), null, 2));

  it(`june/chat exports at most ${MAX_CHAT_NAMES} names, all four store factories among them`, () => {
    const chat = names.get("june/chat")!;
    expect(chat.length).toBeLessThanOrEqual(MAX_CHAT_NAMES);
    expect(chat).toEqual(expect.arrayContaining(["createChat", "memoryStore", "fileStore", "sqliteStore", "postgresStore", "ChatStore", "Responder", "Turn", "ChatTraceRow", "projectChatTrace"]));
    expect(names.get("june/store-kit")).toEqual(expect.arrayContaining(["JournalEntry", "TurnLease", "storeConformanceCases", "ConflictError"]));
  });

  it("exports no name from two entries (the JSX runtime's aside)", () => {
    expect(duplicates(names)).toEqual([]);
    expect(duplicates(new Map([["june/a", ["X", "Y"]], ["june/b", ["X"]], ["june/jsx-runtime", ["Y"]], ["june/sdk/x", ["Y"]]]))).toEqual(["X: june/a, june/b"]);
  });

  it("docs/api.md names every entry and every name it exports", () => {
    const page = readFileSync(apiPage, "utf8");
    const listed = documented(page);
    expect([...listed.keys()].sort()).toEqual([...names.keys()].sort());
    for (const [entry, list] of names) expect({ entry, names: listed.get(entry) }).toEqual({ entry, names: list });
    for (const section of page.split(/^## /m).slice(1)) expect(section).toMatch(/^`[^`]+`\n\nFor /);
  });
});

