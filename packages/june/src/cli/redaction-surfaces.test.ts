import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createChat, fileStore, type Responder } from "june/chat";
import { createChatHandler } from "june/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { ensureBuilt } from "./__fixtures__/built-bin.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { spawnJune } from "./__fixtures__/spawn-june.js";
import { runCli } from "./main.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "june-cli-redaction-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function june(argv: string[], cwd: string, env: Record<string, string> = {}) {
  const io = createFakeIO({ cwd, env });
  const code = await runCli({ argv, io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

// Canaries in the shapes the HTTP routes mask: in the input, and in the reply (split across deltas).
const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz";
const URL_PASSWORD = "s3cr3t-pw-42";
const INPUT = `deploy with postgres://ann:${URL_PASSWORD}@db.example.com/app please`;
const REPLY = ["Your key is sk-pr", "oj-AbCdEfGhIj", "KlMnOpQrStUvWxYz and", " AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG done."];
const SECRETS = [KEY, URL_PASSWORD, "wJalrXUtnFEMIK7MDENG", "AbCdEfGhIjKlMnOpQrStUvWxYz"];

function expectClean(text: string, what: string) {
  for (const secret of SECRETS) expect(text, `${what} leaks ${secret}`).not.toContain(secret);
}

describe("one redaction on every surface that leaves the process", () => {
  it("june ask (plain and --json), sessions list and show (plain and --json) print what the HTTP routes print", async () => {
    server = await createFakeOpenAIServer({ script: [{ text: REPLY }, { text: REPLY }] });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };

    const asked = await june(["ask", "--json", "--model", "openai:gpt-5-mini", INPUT], cwd, env);
    expect(asked.code).toBe(0);
    expectClean(asked.stdout, "ask --json");
    const events = asked.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; text?: string; sessionId?: string });
    const deltas = events.filter((e) => e.type === "text-delta").map((e) => e.text).join("");
    expect(deltas).toBe("Your key is [redacted] and AWS_SECRET_ACCESS_KEY=[redacted] done.");
    const id = events[0]!.sessionId!;

    const plain = await june(["ask", "--model", "openai:gpt-5-mini", "--session", id, "again"], cwd, env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe("Your key is [redacted] and AWS_SECRET_ACCESS_KEY=[redacted] done.");

    const outputs: Record<string, string> = {};
    for (const argv of [["sessions", "list"], ["sessions", "list", "--json"], ["sessions", "show", id], ["sessions", "show", id, "--json"]]) {
      const result = await june(argv, cwd);
      expect(result.code, argv.join(" ")).toBe(0);
      expectClean(result.stdout, argv.join(" "));
      outputs[argv.join(" ")] = result.stdout;
    }
    expect(outputs["sessions show " + id]).toContain(`postgres://ann:[redacted]@db.example.com/app`);

    // The same journal through the HTTP routes: the CLI's JSON is what they answer.
    const echo: Responder = { respond: () => ({ result: Promise.resolve({ text: "" }) }) };
    const handler = createChatHandler(createChat({ responder: echo, store: fileStore(join(cwd, ".june/chat")) }));
    const http = (await (await handler(new Request(`http://test.local/sessions/${id}`))).json()) as { turns: unknown[] };
    const cliTurns = outputs[`sessions show ${id} --json`]!.trim().split("\n").map((line) => JSON.parse(line) as unknown);
    expect(cliTurns).toEqual(http.turns);
    const listed = (await (await handler(new Request("http://test.local/sessions"))).json()) as { sessions: unknown[] };
    // The CLI's list adds each session's cost (it reads every listed journal; the HTTP list does not).
    const cliListed = outputs["sessions list --json"]!.trim().split("\n").map((line) => JSON.parse(line) as { cost?: unknown });
    expect(cliListed.map(({ cost: _cost, ...session }) => session)).toEqual(listed.sessions);
  });
});

describe("june dataset masks the user's own patterns too", () => {
  it("JUNE_REDACT applies to the eval cases it prints", async () => {
    server = await createFakeOpenAIServer({ script: [{ text: ["Account acme_q1w2e3r4t5y6u7i8 ", "is live."] }] });
    const cwd = tempDir();
    const asked = await june(["ask", "--model", "openai:gpt-5-mini", "is acme_q1w2e3r4t5y6u7i8 live?"], cwd, {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: server.url,
    });
    expect(asked.code).toBe(0);
    const cases = await june(["dataset"], cwd, { JUNE_REDACT: "acme_[a-z0-9]{16}" });
    expect(cases.code).toBe(0);
    expect(cases.stdout).not.toContain("acme_q1w2e3r4t5y6u7i8");
    expect(JSON.parse(cases.stdout.trim())).toMatchObject({ input: "is [redacted] live?", reply: "Account [redacted] is live." });
  });
});

describe("june ask masks the user's own patterns in its error line too", () => {
  it("a model error naming an account only JUNE_REDACT knows", async () => {
    server = await createFakeOpenAIServer({
      script: [{ error: { status: 400, message: "account acme_q1w2e3r4t5y6u7i8 is suspended", type: "invalid_request_error" } }],
    });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url, JUNE_REDACT: "acme_[a-z0-9]{16}" };
    const asked = await june(["ask", "--model", "openai:gpt-5-mini", "hello"], cwd, env);
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toContain("the turn failed");
    expect(asked.stderr + asked.stdout).not.toContain("acme_q1w2e3r4t5y6u7i8");
  });
});

// The canaries of __fixtures__/leaky-flow.tsx: an OpenAI key, a bearer token, a value under a `password` key, and
// an account id only the user's own pattern (JUNE_REDACT) names.
const RUN_SECRETS = ["sk-proj-RunJsonAbCdEfGhIjKlMnOp", "RunJsonAbCdEfGhIjKlMnOp", "runjsonT0kenAbCdEf1234", "hunter2-runjson-pw", "acme_q1w2e3r4t5y6u7i8"];
const leakyFlow = fileURLToPath(new URL("./__fixtures__/leaky-flow.tsx", import.meta.url));

describe("june run prints its steps, tool outputs, usage and failures redacted (the built CLI)", () => {
  beforeAll(() => {
    ensureBuilt();
  }, 180_000);

  async function run(args: string[]) {
    const cwd = tempDir();
    const spawned = spawnJune(["run", leakyFlow, ...args], { cwd, env: { JUNE_REDACT: "acme_[a-z0-9]{16}" } });
    const code = await spawned.code;
    const out = { code, stdout: spawned.stdout(), stderr: spawned.stderr() };
    for (const secret of RUN_SECRETS) {
      expect(out.stdout, `june run ${args.join(" ")} prints ${secret} on stdout`).not.toContain(secret);
      expect(out.stderr, `june run ${args.join(" ")} prints ${secret} on stderr`).not.toContain(secret);
    }
    return out;
  }

  it("plain: the last step's result", async () => {
    const plain = await run([]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual({
      password: "[redacted]",
      account: "[redacted]",
      lookup: "Use [redacted] with Bearer [redacted] for account [redacted].",
    });
  });

  it("--json: trace rows (the tool's output) and run-end's steps and usage", async () => {
    const json = await run(["--json"]);
    expect(json.code).toBe(0);
    const lines = json.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; rows?: { kind: string }[]; steps?: unknown; usage?: unknown });
    // The tool's output reached a row (and was masked there).
    expect(lines.some((line) => line.type === "run-update" && line.rows!.some((row) => row.kind === "tool"))).toBe(true);
    const end = lines.at(-1)!;
    expect(end).toMatchObject({
      type: "run-end",
      status: "done",
      steps: { lookup: "Use [redacted] with Bearer [redacted] for account [redacted].", config: { password: "[redacted]", account: "[redacted]" } },
    });
    expect(end.usage).toMatchObject({ inputTokens: expect.any(Number) });
  });

  it("a failing run: the error line and run-end's error", async () => {
    const plain = await run(["--input", "fail"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("the run failed: vault refused [redacted] (Bearer [redacted]) for [redacted]");
    const json = await run(["--input", "fail", "--json"]);
    expect(json.code).toBe(1);
    const end = JSON.parse(json.stdout.trim().split("\n").at(-1)!) as { type: string; status: string; steps: Record<string, unknown>; error: { message: string } };
    expect(end).toMatchObject({ type: "run-end", status: "error", error: { message: "vault refused [redacted] (Bearer [redacted]) for [redacted]" } });
    expect(end.steps.lookup).toBe("Use [redacted] with Bearer [redacted] for account [redacted].");
  });
});
