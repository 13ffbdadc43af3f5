/**
 * End to end: the BUILT `june` against June's fake OpenAI server answering 401 with a message that repeats
 * the key (OpenAI's does): the key never reaches the terminal, with June's patterns and with the user's
 * `JUNE_REDACT` ones, in any command's output (plain and `--json`), the sessions and cases the failed turns
 * left included.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { ensureBuilt, packageDir } from "./__fixtures__/built-bin.js";
import { spawnJune } from "./__fixtures__/spawn-june.js";

beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), "june-key-echo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fake OpenAI that refuses the key the way OpenAI does: the key, repeated, in the message (every request). */
async function refusing(key: string): Promise<FakeOpenAIServer> {
  return createFakeOpenAIServer({
    script: () => ({
      error: {
        status: 401,
        message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    }),
  });
}

const cases: { name: string; key: string; env: Record<string, string> }[] = [
  { name: "an OpenAI key (June's patterns)", key: "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789", env: {} },
  { name: "a key only JUNE_REDACT knows", key: "acme-key-9f8e7d6c5b4a39281706", env: { JUNE_REDACT: "acme-key-[0-9a-f]+" } },
];

describe.each(cases)("a 401 that echoes $name", { timeout: 60_000 }, ({ key, env }) => {
  it("june ask says the key was refused, without the key", async () => {
    server = await refusing(key);
    const run = spawnJune(["ask", "--model", "openai:gpt-5-mini", "hi"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: key, ...env },
    });
    expect(await run.code).toBe(1);
    const output = run.stdout() + run.stderr();
    expect(run.stderr()).toMatch(/june: the turn failed: OpenAI refused the API key \(401: Incorrect API key provided: \[redacted\]\. .*\): check OPENAI_API_KEY/);
    expect(output).not.toContain(key);
    expect(output).not.toContain(key.slice(0, 16));
  });

  it("june chat says the key was refused, without the key", async () => {
    server = await refusing(key);
    const run = spawnJune(["chat", "--model", "openai:gpt-5-mini"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: key, ...env },
      stdin: "hi\n",
    });
    await run.code;
    const output = run.stdout() + run.stderr();
    expect(output).toMatch(/OpenAI refused the API key \(401: Incorrect API key provided: \[redacted\]\./);
    expect(output).not.toContain(key);
    expect(output).not.toContain(key.slice(0, 16));
  });
});

const examples = join(packageDir, "../../examples");

describe.each(cases)("every command, after a 401 that echoes $name", { timeout: 180_000 }, ({ key, env }) => {
  it("prints the key in no output, plain or --json: ask, chat, run, eval, then sessions and dataset over what they left", async () => {
    server = await refusing(key);
    const cwd = mkdtempSync(join(dir, "every-"));
    const casesFile = join(cwd, "cases.jsonl");
    writeFileSync(casesFile, `${JSON.stringify({ id: "c1", input: "hi", reply: "hello" })}\n`);
    const model = ["--model", "openai:gpt-5-mini"];
    const runs: { argv: string[]; stdin?: string }[] = [
      { argv: ["ask", ...model, "hi"] },
      { argv: ["ask", ...model, "--json", "hi"] },
      { argv: ["chat", ...model], stdin: "hi\n" },
      { argv: ["chat", ...model, "--json"], stdin: "hi\n" },
      { argv: ["run", join(examples, "first-workflow.tsx"), "--input", "x", ...model] },
      { argv: ["run", join(examples, "first-workflow.tsx"), "--input", "x", ...model, "--json"] },
      { argv: ["eval", join(examples, "offline.tsx"), casesFile, ...model] },
      { argv: ["eval", join(examples, "offline.tsx"), casesFile, ...model, "--json"] },
    ];
    const outputs: Record<string, string> = {};
    const june = async (argv: string[], stdin = "") => {
      const run = spawnJune(argv, { cwd, env: { OPENAI_BASE_URL: server!.url, OPENAI_API_KEY: key, NO_COLOR: "1", ...env }, stdin });
      const code = await run.code;
      outputs[argv.join(" ")] = run.stdout() + run.stderr();
      return { code, stdout: run.stdout() };
    };
    for (const { argv, stdin } of runs) await june(argv, stdin);
    // Each of them reached the provider and said it refused the key (masked), --json as an event.
    for (const [command, output] of Object.entries(outputs)) expect(output, command).toContain("Incorrect API key provided: [redacted]");
    const asked = await june(["sessions", "list", "--json"]);
    const ids = asked.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    for (const id of ids) {
      await june(["sessions", "show", id]);
      await june(["sessions", "show", id, "--json"]);
      await june(["sessions", "export", id]);
    }
    await june(["sessions", "list"]);
    await june(["dataset"]);
    for (const [command, output] of Object.entries(outputs)) {
      expect(output, command).not.toContain(key);
      expect(output, command).not.toContain(key.slice(0, 16));
    }
  });
});
