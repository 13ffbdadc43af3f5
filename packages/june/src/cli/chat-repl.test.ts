import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { runCli } from "./main.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-repl-"));
  dirs.push(dir);
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

/** Runs `june chat` with `lines` on a piped stdin. */
async function chat(args: string[], lines: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const io = createFakeIO({ cwd: options.cwd ?? tempDir(), env: options.env });
  io.input.end(lines.map((line) => `${line}\n`).join(""));
  const code = await runCli({ argv: ["chat", ...args], io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

const sessionFiles = (cwd: string) =>
  existsSync(join(cwd, ".june/chat")) ? readdirSync(join(cwd, ".june/chat")).filter((file) => file.endsWith(".jsonl")) : [];

describe("june chat's REPL commands", () => {
  it("never sends a /command to the model: /help, /session, an unknown one with a suggestion", async () => {
    server = await createFakeOpenAIServer({ script: ["Hi there."] });
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const result = await chat(["--model", "openai:gpt-5-mini"], ["/help", "/sesions", "/session", "//etc/hosts is a file", "/exit", "never sent"], { env });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]!.body.input)).toContain("/etc/hosts is a file");
    expect(JSON.stringify(server.requests[0]!.body.input)).not.toContain("/help");
    expect(result.stdout).toBe("Hi there.\n");
    expect(result.stderr).toMatch(/\/sessions +List the store's recent sessions/);
    expect(result.stderr).toMatch(/\/attach <path> +Send a file/);
    expect(result.stderr).toContain("june: Unknown command /sesions: did you mean /sessions? (/help lists them");
    expect(result.stderr).toContain("no session yet: it is made when your first message is sent");
  });

  it("makes a session only when a turn starts: quitting at once leaves none behind", async () => {
    server = await createFakeOpenAIServer({ script: [] });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const result = await chat(["--model", "openai:gpt-5-mini"], ["/help", "/exit"], { cwd, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("june chat · openai:gpt-5-mini · new session");
    expect(result.stderr).not.toMatch(/session [0-9a-f]{8}-/);
    expect(sessionFiles(cwd)).toEqual([]);
  });

  it("/new starts another session, /sessions lists them, /open continues one by an id prefix", async () => {
    server = await createFakeOpenAIServer({ script: ["One.", "Two.", "Three."] });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const first = await chat(["--model", "openai:gpt-5-mini"], ["First question", "/new", "Second question", "/sessions"], { cwd, env });
    expect(first.code).toBe(0);
    expect(sessionFiles(cwd)).toHaveLength(2);
    expect(first.stderr).toMatch(/ID +UPDATED +TURNS +TITLE/);
    expect(first.stderr).toMatch(/\* [0-9a-f-]+ +just now +1 +Second question/);
    expect(first.stderr).toMatch(/  [0-9a-f-]+ +just now +1 +First question/);
    const firstId = sessionFiles(cwd)
      .map((file) => file.replace(/\.jsonl$/, ""))
      .find((id) => first.stderr.includes(`  ${id}`) && !first.stderr.includes(`* ${id}`))!;
    const reopened = await chat(["--model", "openai:gpt-5-mini"], [`/open ${firstId.slice(0, 8)}`, "And a follow-up"], { cwd, env });
    expect(reopened.stderr).toContain(`session ${firstId} · 1 turn · First question`);
    expect(JSON.stringify(server.requests[2]!.body.input)).toContain("First question");
    expect(sessionFiles(cwd)).toHaveLength(2);
    const missing = await chat(["--model", "openai:gpt-5-mini"], ["/open nope", "/open"], { cwd, env });
    expect(missing.stderr).toContain('june: No session "nope" in this chat\'s store (/sessions lists them)');
    expect(missing.stderr).toContain("june: /open needs a session id");
  });
});

describe("a local model server that is not running", () => {
  /** A port nothing listens on: one that was just free. */
  async function closedPort(): Promise<number> {
    const probe: Server = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  it("june ask --model ollama:… says to start Ollama, at once, and makes no session", async () => {
    const cwd = tempDir();
    const port = await closedPort();
    const io = createFakeIO({ cwd, env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
    const started = Date.now();
    const code = await runCli({ argv: ["ask", "--model", "ollama:llama3.2", "hi"], io });
    expect(code).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(io.stderrText()).toBe(
      `june: Could not reach http://127.0.0.1:${port} for ollama:llama3.2 (connection refused): is Ollama running? Start it with \`ollama serve\` (or point OLLAMA_HOST at it)\n`,
    );
    expect(sessionFiles(cwd)).toEqual([]);
  });

  it("an openai-compatible --base-url that refuses names the URL it tried", async () => {
    const port = await closedPort();
    const io = createFakeIO({ cwd: tempDir() });
    io.input.end("hi\n");
    const code = await runCli({ argv: ["chat", "--model", "openai-compatible:qwen", "--base-url", `http://127.0.0.1:${port}/v1`], io });
    expect(code).toBe(2);
    expect(io.stderrText()).toContain(`Could not reach http://127.0.0.1:${port} for openai-compatible:qwen (connection refused): start the server at http://127.0.0.1:${port}, or pass --base-url`);
  });
});

describe("june sessions list", () => {
  it("says so for an empty store and for a default store not made yet (exit 0), and fails for a missing --store", async () => {
    const cwd = tempDir();
    const io = () => createFakeIO({ cwd });
    const none = io();
    expect(await runCli({ argv: ["sessions", "list"], io: none })).toBe(0);
    expect(none.stderrText()).toBe("No sessions yet: there is no .june/chat here. Start one with june chat or june ask.\n");
    mkdirSync(join(cwd, "empty"));
    const empty = io();
    expect(await runCli({ argv: ["sessions", "list", "--store", "empty"], io: empty })).toBe(0);
    expect(empty.stderrText()).toBe("No sessions in empty yet. Start one with june chat or june ask.\n");
    expect(empty.stdoutText()).toBe("");
    const wrong = io();
    expect(await runCli({ argv: ["sessions", "list", "--store", "nowhere"], io: wrong })).toBe(2);
    expect(wrong.stderrText()).toBe("june: No session store at nowhere: the folder does not exist (check --store)\n");
    writeFileSync(join(cwd, "file.txt"), "x");
    const file = io();
    expect(await runCli({ argv: ["sessions", "list", "--store", "file.txt"], io: file })).toBe(2);
  });

  it("on a terminal: a table with a header and relative times", async () => {
    server = await createFakeOpenAIServer({ script: ["One."] });
    const cwd = tempDir();
    await runCli({
      argv: ["ask", "--model", "openai:gpt-5-mini", "Deploy the docs to staging"],
      io: createFakeIO({ cwd, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url } }),
    });
    const io = createFakeIO({ cwd, stdoutTTY: true, columns: 100, env: { NO_COLOR: "1" } });
    expect(await runCli({ argv: ["sessions", "list"], io })).toBe(0);
    const lines = io.stdoutText().trimEnd().split("\n");
    // COST: the session's turns priced from the catalog (gpt-5-mini is in it), right-aligned.
    expect(lines[0]).toMatch(/^ID {36}UPDATED {3}TURNS +COST {2}TITLE$/);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36} {2}just now {6}1 +\$\d+\.\d+ {2}Deploy the docs to staging$/);
  });
});
