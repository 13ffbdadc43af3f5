import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SessionBusyError, SessionNotFoundError } from "../stores/errors.js";
import { RunError, TimeoutError } from "../runtime/errors.js";
import { JuneError } from "./june-error.js";

type ErrorClass = typeof JuneError;

const SRC = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "__fixtures__" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every error class in the library's source: the files that declare one are imported and their exports walked. */
async function errorClasses(): Promise<{ cls: ErrorClass; file: string; source: string }[]> {
  const found: { cls: ErrorClass; file: string; source: string }[] = [];
  for (const path of sourceFiles(SRC)) {
    const source = readFileSync(path, "utf8");
    if (!/class \w+ extends \w*Error\b/.test(source)) continue;
    const module = (await import(path)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (typeof value === "function" && value !== JuneError && value.prototype instanceof JuneError) {
        found.push({ cls: value as ErrorClass, file: relative(SRC, path), source });
      }
    }
  }
  return found;
}

/** What an error of `cls` looks like when another copy of June (another bundle) threw it. */
function fromAnotherCopy(cls: ErrorClass): Error {
  const foreign = Object.assign(new Error("from another copy"), { name: cls.name });
  for (let c: Function = cls; c !== Error; c = Object.getPrototypeOf(c) as Function) {
    Object.assign(foreign, { [(c as ErrorClass).marker]: true });
  }
  return foreign;
}

describe("error markers", () => {
  it("every error class has its own registered marker, named after it, and a stable name", async () => {
    const classes = await errorClasses();
    expect(classes.length).toBeGreaterThan(40);
    const markers = new Map<symbol, string>();
    for (const { cls, file, source } of classes) {
      const where = `${cls.name} (${file})`;
      expect(Object.hasOwn(cls, "marker"), `${where}: declare static override readonly marker`).toBe(true);
      expect(Symbol.keyFor(cls.marker), where).toBe(`june.${cls.name}`);
      expect(markers.get(cls.marker), `${where} shares its marker`).toBeUndefined();
      markers.set(cls.marker, cls.name);
      // The name users see is a string literal, so a minifier that renames the class leaves it.
      expect(source, `${where}: override readonly name = "${cls.name}"`).toContain(`override readonly name = "${cls.name}";`);
    }
  });

  it("each class's isInstance matches a copy from another bundle and no other kind of June error", async () => {
    const classes = (await errorClasses()).map(({ cls }) => cls);
    for (const cls of classes) {
      const foreign = fromAnotherCopy(cls);
      expect(cls.isInstance(foreign), cls.name).toBe(true);
      expect(JuneError.isInstance(foreign), cls.name).toBe(true);
      for (const other of classes) {
        if (other === cls || cls.prototype instanceof other) continue;
        expect(other.isInstance(foreign), `${other.name}.isInstance(a ${cls.name})`).toBe(false);
      }
    }
  });

  it("instances carry the markers of their class and every class above it", () => {
    const busy = new SessionBusyError("s");
    expect(SessionBusyError.isInstance(busy)).toBe(true);
    expect(JuneError.isInstance(busy)).toBe(true);
    expect(SessionNotFoundError.isInstance(busy)).toBe(false);
    expect(TimeoutError.isInstance(new RunError("failed", { result: {} as never }))).toBe(false);

    class LeaseLostError extends SessionBusyError {
      static override readonly marker: symbol = Symbol.for("june.test.LeaseLostError");
    }
    const lost = new LeaseLostError("s");
    expect(LeaseLostError.isInstance(lost)).toBe(true);
    expect(SessionBusyError.isInstance(lost)).toBe(true);
    expect(LeaseLostError.isInstance(busy)).toBe(false);
  });

  it("matches by marker alone: a look-alike name is not enough, and plain values are not errors", () => {
    const lookalike = Object.assign(new Error("same name"), { name: "SessionBusyError", [JuneError.marker]: true });
    expect(SessionBusyError.isInstance(lookalike)).toBe(false);
    expect(JuneError.isInstance(lookalike)).toBe(true);
    for (const value of [null, undefined, "SessionBusyError", 42, new Error("plain")]) {
      expect(SessionBusyError.isInstance(value)).toBe(false);
      expect(JuneError.isInstance(value)).toBe(false);
    }
  });

  it("says how to call isInstance when it is detached from its class", () => {
    const detached = SessionBusyError.isInstance as (error: unknown) => boolean;
    expect(() => detached(new SessionBusyError("s"))).toThrow(/called on an error class/);
  });
});
