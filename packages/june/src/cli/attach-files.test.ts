import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import type { FakeModelInlineFile } from "../testing/fake-provider-files.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { fileFlagValues } from "./attach-files.js";
import { runCli } from "./main.js";
import { parseReplLine } from "./repl-commands.js";

/** A 1x1 PNG, and a small PDF. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from([...Buffer.from("%PDF-1.4\n"), ...Array.from({ length: 64 }, (_, i) => i)]);

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-attach-"));
  dirs.push(dir);
  writeFileSync(join(dir, "pixel.png"), PNG);
  writeFileSync(join(dir, "brief.pdf"), PDF);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function june(argv: string[], options: { cwd: string; lines?: string[] }) {
  const io = createFakeIO({ cwd: options.cwd, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server!.url } });
  // A piped stdin, ended (june ask reads it when it has no input).
  io.input.end((options.lines ?? []).map((line) => `${line}\n`).join(""));
  const code = await runCli({ argv, io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

const bytesOf = (file: unknown) => Buffer.from((file as FakeModelInlineFile).data);
const sessionOf = (stderr: string) => /session ([0-9a-f-]{36})/.exec(stderr)?.[1];

describe("june ask --file and june chat's /attach", () => {
  it("ask sends each --file with the input; the model gets their bytes; sessions show lists them", async () => {
    server = await createFakeOpenAIServer({ script: ["A pixel and a brief.", "Just a pixel."] });
    const cwd = tempDir();
    const asked = await june(["ask", "--model", "openai:gpt-5-mini", "--file", "pixel.png", "--file=brief.pdf", "What are these?"], { cwd });
    expect(asked.stderr).not.toContain("june:");
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe("A pixel and a brief.");
    const [image, pdf] = server.requests[0]!.files;
    expect([image?.mediaType, pdf?.mediaType, pdf?.filename]).toEqual(["image/png", "application/pdf", "brief.pdf"]);
    expect(bytesOf(image).equals(PNG)).toBe(true);
    expect(bytesOf(pdf).equals(PDF)).toBe(true);

    // Files alone: no input needed.
    const alone = await june(["ask", "--model", "openai:gpt-5-mini", "--file", "pixel.png"], { cwd });
    expect(alone.code).toBe(0);
    expect(server.requests[1]!.files).toHaveLength(1);

    const shown = await june(["sessions", "show", sessionOf(asked.stderr)!], { cwd });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`› What are these?\n  [file] pixel.png (image/png, ${PNG.byteLength} B)\n  [file] brief.pdf (application/pdf, ${PDF.byteLength} B)\nA pixel and a brief.\n`);
  });

  it("a --file that names no file is a usage error, and nothing is sent", async () => {
    server = await createFakeOpenAIServer({ script: [] });
    const cwd = tempDir();
    const result = await june(["ask", "--model", "openai:gpt-5-mini", "--file", "nope.png", "Hi"], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("No file nope.png to attach");
    expect(server.requests).toHaveLength(0);
  });

  it("/attach sends a file with the next message only; a missing one or none says so", async () => {
    server = await createFakeOpenAIServer({ script: ["A pixel.", "Still a pixel."] });
    const cwd = tempDir();
    const result = await june(["chat", "--model", "openai:gpt-5-mini"], { cwd, lines: ["/attach", "/attach nope.png", "/attach pixel.png", "What is this?", "And now?"] });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("/attach needs a file: /attach <path>");
    expect(result.stderr).toContain("No file nope.png to attach");
    expect(result.stderr).toContain(`attached pixel.png (image/png, ${PNG.byteLength} B): sent with your next message`);
    expect(server.requests).toHaveLength(2);
    expect(bytesOf(server.requests[0]!.files[0]).equals(PNG)).toBe(true);
    // The next turn's context still holds the first turn's file, and nothing new.
    expect(server.requests[1]!.files).toHaveLength(1);
    const shown = await june(["sessions", "show", sessionOf(result.stderr)!], { cwd });
    expect(shown.stdout).toContain(`› What is this?\n  [file] pixel.png (image/png, ${PNG.byteLength} B)\nA pixel.\n\n› And now?\nStill a pixel.\n`);
  });

  it("reads every --file, in order, up to --; /attach takes a path with spaces, quoted or not", () => {
    expect(fileFlagValues(["--file", "a.png", "x", "--file=b.pdf", "--", "--file", "c.txt"])).toEqual(["a.png", "b.pdf"]);
    expect(parseReplLine('/attach "my chart.png"')).toEqual({ kind: "command", command: { type: "attach", path: "my chart.png" } });
    expect(parseReplLine("/attach my chart.png")).toEqual({ kind: "command", command: { type: "attach", path: "my chart.png" } });
  });
});
