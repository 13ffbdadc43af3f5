import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, type Responder } from "june/chat";
import { redact, redactText } from "june";
import { createChatHandler } from "june/server";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeIO } from "../cli/__fixtures__/fake-io.js";
import { runCli } from "../cli/main.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// A credential of the user's own shape, which June's patterns do not know.
const OWN = "ACME-7f3a9c2e11";
const ACME = /ACME-[0-9a-f]{10}/;

describe("redaction patterns of your own", () => {
  it("redactText and redact mask them after June's own, with or without the g flag", () => {
    expect(redactText(`a ${OWN} and ${OWN}`, { patterns: [ACME] })).toBe("a [redacted] and [redacted]");
    expect(redactText(`a ${OWN}`)).toBe(`a ${OWN}`);
    expect(redact({ note: `x ${OWN}`, apiKey: "k" }, { patterns: [/ACME-[0-9a-f]{10}/g] })).toEqual({ note: "x [redacted]", apiKey: "[redacted]" });
    expect(() => redactText("x", { patterns: ["ACME" as unknown as RegExp] })).toThrow(TypeError);
  });

  it("createChatHandler({ redact }) masks them in every answer and event; the CLI takes them from JUNE_REDACT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "june-own-redaction-"));
    dirs.push(dir);
    const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `you said ${input}` }) }) };
    const store = fileStore(dir);
    const handler = createChatHandler(createChat({ responder: echo, store }), { redact: { patterns: [ACME] } });
    const post = (path: string, body: unknown) =>
      handler(new Request(`http://test.local${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    expect((await post("/sessions", { id: "own" })).status).toBe(201);
    const stream = await (await post("/sessions/own/turns", { input: `my id is ${OWN}` })).text();
    expect(stream).toContain("you said my id is [redacted]");
    expect(stream).not.toContain(OWN);
    for (const path of ["/sessions", "/sessions/own"]) {
      const text = await (await handler(new Request(`http://test.local${path}`))).text();
      expect(text, path).not.toContain(OWN);
    }
    expect(() => createChatHandler(createChat({ responder: echo }), { redact: { patterns: ["x" as unknown as RegExp] } })).toThrow(TypeError);

    const june = async (argv: string[], env: Record<string, string>) => {
      const io = createFakeIO({ cwd: dir, env });
      const code = await runCli({ argv, io });
      return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
    };
    for (const argv of [["sessions", "show", "own", "--store", "."], ["sessions", "list", "--store", ".", "--json"], ["sessions", "export", "own", "--store", "."]]) {
      const plain = await june(argv, {});
      expect(plain.stdout, argv.join(" ")).toContain(OWN);
      const masked = await june(argv, { JUNE_REDACT: "/acme-[0-9a-f]{10}/i\n\n" });
      expect(masked.code).toBe(0);
      expect(masked.stdout, argv.join(" ")).not.toContain(OWN);
    }
    const bad = await june(["sessions", "list", "--store", "."], { JUNE_REDACT: "acme-(" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/JUNE_REDACT: line 1 is not a regular expression/);
  });
});
