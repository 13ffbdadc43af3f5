import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import type { ProcessIO } from "./io.js";
import { runCli } from "./main.js";
import { outputGate } from "./output-gate.js";

const cliDir = fileURLToPath(new URL(".", import.meta.url));

/** The CLI's shipped source files (no tests, no fixtures), by their path under src/cli. */
function shippedSources(dir = cliDir): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : shippedSources(path);
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
    return [{ path: relative(cliDir, path), text: readFileSync(path, "utf8") }];
  });
}

const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789";

describe("the output gate is the CLI's one redaction point", () => {
  const sources = shippedSources();

  it("only output-gate.ts imports the redactor's functions, and nothing else in src/cli calls them", () => {
    expect(sources.length).toBeGreaterThan(40);
    for (const { path, text } of sources) {
      if (path === "output-gate.ts") continue;
      // A type (TextRedactOptions) may be named; `redact` and `redactText` are the gate's to call.
      const imports = [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"[^"]*redaction\/[^"]*"/g)];
      for (const [, typeOnly, names] of imports) {
        if (typeOnly) continue;
        const values = names!.split(",").map((name) => name.trim()).filter((name) => name !== "" && !name.startsWith("type "));
        expect(values, `${path} imports ${values.join(", ")} from redaction/`).toEqual([]);
      }
      expect(text, path).not.toMatch(/\bredactText\(/);
      expect(text, path).not.toMatch(/(?<![.\w])redact\(/);
      expect(text, path).not.toMatch(/StreamRedactor/);
    }
  });

  it("JUNE_REDACT is resolved in one place: runCli, where the process's io comes in", () => {
    const callers = sources.filter(({ text }) => /\bredactOptionsOf\(/.test(text)).map(({ path }) => path);
    expect(callers.sort()).toEqual(["main.ts", "redact-patterns.ts"]);
    const main = sources.find(({ path }) => path === "main.ts")!.text;
    expect(main.match(/\bredactOptionsOf\(/g)).toHaveLength(1);
    expect(main.match(/\boutputGate\(/g)).toHaveLength(1);
  });
});

describe("outputGate", () => {
  function gated(env: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const processIO: ProcessIO = {
      stdout: { write: (text) => void out.push(text), isTTY: false },
      stderr: { write: (text) => void err.push(text), isTTY: false },
      stdin: { isTTY: false, stream: new PassThrough() },
      env,
      cwd: process.cwd(),
      onInterrupt: () => () => {},
      interrupt: () => {},
      exit: (code) => {
        throw new Error(`exit ${code}`);
      },
    };
    return { gate: outputGate(processIO, { patterns: [/acme-[0-9a-f]{10}/] }), out, err };
  }

  it("masks what the CLI composes, June's patterns then its own, whatever the text looks like", () => {
    const { gate, out, err } = gated();
    gate.stderr.write(`june: the turn failed: Incorrect API key provided: ${KEY} for acme-0123456789\n`);
    // A line that looks like JSON is composed text too: no shape lets a key past the gate.
    gate.stdout.write(`{"note":"use ${KEY}"}\n`);
    expect(err.join("")).toBe("june: the turn failed: Incorrect API key provided: [redacted] for [redacted]\n");
    expect(out.join("")).toBe(`{"note":"use [redacted]"}\n`);
  });

  it("writes what was redacted with its options already as it is, and redacts values with them", () => {
    const { gate, out } = gated();
    const safe = gate.redact({ apiKey: "x", note: `acme-0123456789 and ${KEY}` });
    expect(safe).toEqual({ apiKey: "[redacted]", note: "[redacted] and [redacted]" });
    gate.stdout.writeRedacted(`${JSON.stringify(safe)}\n`);
    expect(out.join("")).toBe(`{"apiKey":"[redacted]","note":"[redacted] and [redacted]"}\n`);
    expect(gate.redaction.patterns).toHaveLength(1);
  });

  it("keeps stderr as it is for a secret the user must see whole, and never stacks", () => {
    const { gate, out, err } = gated();
    gate.stderrVerbatim.write(`http://127.0.0.1:4000/?token=${KEY}\n`);
    expect(err.join("")).toBe(`http://127.0.0.1:4000/?token=${KEY}\n`);
    // Gating a gated io gates its process's streams: one mask, with the new options.
    const again = outputGate(gate, {});
    again.stdout.write("acme-0123456789\n");
    expect(out.join("")).toBe("acme-0123456789\n");
  });
});

describe("runCli resolves JUNE_REDACT once, for every command", () => {
  it("a bad JUNE_REDACT is a usage error naming the line for any command, and --help still prints", async () => {
    for (const argv of [["sessions", "rm", "x"], ["dataset"], ["ask", "--model", "openai:gpt-5-mini", "hi"]]) {
      const io = createFakeIO({ env: { JUNE_REDACT: "ok\nacme-(" } });
      expect(await runCli({ argv, io }), argv.join(" ")).toBe(2);
      expect(io.stderrText()).toMatch(/^june: JUNE_REDACT: line 2 is not a regular expression/);
    }
    const help = createFakeIO({ env: { JUNE_REDACT: "acme-(" } });
    expect(await runCli({ argv: ["ask", "--help"], io: help })).toBe(0);
    expect(help.stdoutText()).toContain("USAGE");
  });
});
