/**
 * End to end: the BUILT `june` on `--model anthropic:…` and `--model google:…`, against the fake Anthropic
 * Messages and Gemini servers of `june/testing`: a streamed reply, a tool call approved at a terminal, and
 * a refused key that names the variable to fix.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeAnthropicServer } from "../testing/fake-anthropic-server.js";
import { createFakeGoogleServer } from "../testing/fake-google-server.js";
import type { FakeModelRequest, FakeModelScript } from "../testing/fake-provider-http.js";
import { bin, ensureBuilt } from "./__fixtures__/built-bin.js";
import { spawnJune, until } from "./__fixtures__/spawn-june.js";

const offlineExample = fileURLToPath(new URL("../../../../examples/offline.tsx", import.meta.url));

beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-providers-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Fake {
  url: string;
  requests: readonly FakeModelRequest[];
  close(): Promise<void>;
}
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Provider {
  name: string;
  model: string;
  start(script: FakeModelScript, apiKey: string): Promise<Fake>;
  env(url: string, key: string): Record<string, string>;
  keyVariable: string;
  /** The messages of a request, as sent. */
  messages(request: FakeModelRequest): unknown;
  /** How it refuses a wrong key. */
  refusal: RegExp;
}

const providers: Provider[] = [
  {
    name: "anthropic",
    model: "anthropic:claude-sonnet-4-5",
    start: (script, apiKey) => createFakeAnthropicServer({ script, apiKey }),
    env: (url, key) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: key }),
    keyVariable: "ANTHROPIC_API_KEY",
    messages: (request) => request.body.messages,
    refusal: /^june: the turn failed: Anthropic refused the API key \(401: invalid x-api-key\): check ANTHROPIC_API_KEY$/m,
  },
  {
    name: "google",
    model: "google:gemini-2.5-flash",
    start: (script, apiKey) => createFakeGoogleServer({ script, apiKey }),
    env: (url, key) => ({ GOOGLE_GENERATIVE_AI_BASE_URL: url, GOOGLE_GENERATIVE_AI_API_KEY: key }),
    keyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
    messages: (request) => request.body.contents,
    refusal: /^june: the turn failed: Google refused the API key \(400: API key not valid\. Please pass a valid API key\.\): check GOOGLE_GENERATIVE_AI_API_KEY$/m,
  },
];

const KEY = "provider-test-key-0123456789";

async function june(args: string[], env: Record<string, string>) {
  const run = spawnJune(args, { cwd: tempDir(), env });
  const code = await run.code;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe.each(providers)("june on --model $model (the fake $name server)", { timeout: 90_000 }, (provider) => {
  it("june ask streams the reply to stdout, the session id to stderr", async () => {
    fake = await provider.start([{ text: ["Hello", ", ", "world", "!"], delay: 5 }], KEY);
    const result = await june(["ask", "--model", provider.model, "Say", "hello"], provider.env(fake.url, KEY));
    expect(result).toMatchObject({ code: 0, stdout: "Hello, world!" });
    expect(result.stderr).toMatch(/^session [0-9a-f-]+\n$/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.stream ?? fake.requests[0]!.path.includes("stream")).toBeTruthy();
    expect(JSON.stringify(provider.messages(fake.requests[0]!))).toContain("Say hello");
  });

  it("with stderr on the same pipe (2>&1), the reply and `session <id>` are on lines of their own", async () => {
    fake = await provider.start([{ text: ["Hello", ", ", "world", "!"] }], KEY);
    const args = [process.execPath, bin, "ask", "--model", provider.model, "hi"].map((arg) => `'${arg}'`).join(" ");
    const run = spawn("sh", ["-c", `${args} 2>&1 | cat`], { cwd: tempDir(), env: { PATH: process.env.PATH ?? "", ...provider.env(fake.url, KEY) } });
    let output = "";
    run.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    expect(await new Promise((resolve) => run.on("close", resolve))).toBe(0);
    expect(output).toMatch(/^Hello, world!\nsession [0-9a-f-]+\n$/);
  });

  it("runs the offline example's deploy tool when the terminal approves it", async () => {
    fake = await provider.start(
      [
        { toolCalls: [{ toolName: "deploy", input: { project: "docs", env: "staging" } }] },
        "I deployed the docs to staging.",
        { text: ["The docs ", "are live ", "on staging."], delay: 5 },
      ],
      KEY,
    );
    const run = spawnJune(["ask", offlineExample, "--model", provider.model, "Deploy the docs to staging"], {
      cwd: tempDir(),
      env: provider.env(fake.url, KEY),
      terminal: true,
    });
    await until(() => run.stdout().includes("approve? [y/N/e(dit)]"), "the approval prompt");
    expect(run.stdout()).toContain("deploy wants to run with");
    expect(run.stdout()).toContain('"project": "docs"');
    run.write("y\r");
    expect(await run.code).toBe(0);
    expect(run.stdout()).toContain("The docs are live on staging.");
    expect(fake.requests).toHaveLength(3);
    expect(JSON.stringify(fake.requests[0]!.body.tools)).toContain("deploy");
    // The approved call ran, and its result went back to the model.
    expect(JSON.stringify(provider.messages(fake.requests[1]!))).toContain("docs is live on staging (build 1f3c9e2, 42 files)");
  });

  it("a denied call never runs: the model hears why", async () => {
    fake = await provider.start(
      [{ toolCalls: [{ toolName: "deploy", input: { project: "docs", env: "staging" } }] }, "I did not deploy.", "Not deployed."],
      KEY,
    );
    const result = await june(["ask", offlineExample, "--model", provider.model, "--deny", "Deploy the docs to staging"], provider.env(fake.url, KEY));
    expect(result).toMatchObject({ code: 0, stdout: "Not deployed." });
    const second = JSON.stringify(provider.messages(fake.requests[1]!));
    expect(second).not.toContain("docs is live");
    expect(second).toContain("denied with --deny");
  });

  it(`a refused key is one line that names ${provider.keyVariable}, never the key`, async () => {
    fake = await provider.start(["never sent"], KEY);
    const wrong = "wrong-key-abcdefghijklmnopqrstuvwxyz";
    const result = await june(["ask", "--model", provider.model, "hi"], provider.env(fake.url, wrong));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(provider.refusal);
    expect(result.stderr).not.toContain(wrong);
    // Not retried: a refused key is not a passing outage.
    expect(fake.requests).toHaveLength(1);
  });

  it("a 401 from the script is explained the same way", async () => {
    fake = await provider.start([{ error: { status: 401, message: "key expired" } }], KEY);
    const result = await june(["ask", "--model", provider.model, "hi"], provider.env(fake.url, KEY));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`refused the API key (401: key expired): check ${provider.keyVariable}`);
  });
});
