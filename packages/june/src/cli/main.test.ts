import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { juneVersion, runCli } from "./main.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-cli-"));
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

async function june(argv: string[], options: Parameters<typeof createFakeIO>[0] = {}) {
  const io = createFakeIO({ cwd: tempDir(), ...options });
  const code = await runCli({ argv, io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText(), io };
}

describe("runCli", () => {
  it("prints help for june and for each command, without colors off a terminal", async () => {
    const root = await june(["--help"]);
    expect(root.code).toBe(0);
    for (const command of ["run", "chat", "ask", "studio", "sessions"]) expect(root.stdout).toContain(command);
    expect(root.stdout).toContain("EXIT CODES");
    expect(root.stdout).not.toContain("\u001B[");
    expect(root.stdout).toContain("MODELS");
    expect(root.stdout).toContain("ANTHROPIC_API_KEY");
    const ask = await june(["ask", "--help"]);
    expect(ask.stdout).toContain("--model");
    expect(ask.stdout).toContain("a function ({ model }) => either");
    expect((await june(["run", "--help"])).stdout).toContain("a component that takes { input, model }");
    expect((await june(["sessions", "export", "--help"])).stdout).toContain("redacted");
    // Each command's own help: its usage starting with june, examples, and no copy of june --help's blocks.
    for (const path of [["run"], ["chat"], ["ask"], ["studio"], ["sessions"], ["sessions", "list"], ["sessions", "rm"], ["dataset"], ["eval"]]) {
      const help = (await june([...path, "--help"])).stdout;
      expect(help).toContain(`USAGE\n  june ${path.join(" ")}`);
      expect(help).toContain("EXAMPLES");
      expect(help).not.toContain("MODELS");
      expect(help).not.toContain("OUTPUT");
    }
    expect((await june(["eval", "--help"])).stdout).not.toContain("With no file");
    expect((await june(["chat", "--help"])).stdout).toMatch(/IN THE CHAT\n {4}\/help/);
  });

  it("prints the version", async () => {
    const { code, stdout } = await june(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${juneVersion()}\n`);
    expect(juneVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("answers bad usage with one line on stderr and exit code 2", async () => {
    const cases: [string[], RegExp][] = [
      [["frobnicate"], /^june: Unknown command "frobnicate" \(see june --help\)\n$/],
      [["ask", "--bogus", "hi"], /^june: Unknown option --bogus for "ask" \(see june ask --help\)\n$/],
      [["ask", "--model"], /^june: Option --model needs a value\n$/],
      [["ask", "--yes", "--deny", "--model", "openai:x", "hi"], /^june: Pass --yes or --deny, not both\n$/],
      [["ask", "hi"], /^june: Nothing to talk to: pass a chat module .*JUNE_MODEL\)\n$/],
      [["ask", "--model", "mistral:large", "hi"], /^june: Unknown model provider "mistral"/],
      [["ask", "--model", "openai:gpt-5-mini", "hi"], /^june: Model "openai:gpt-5-mini" needs an API key: set OPENAI_API_KEY\n$/],
      [["ask", "missing.tsx", "hi"], /^june: missing\.tsx: no such file\n$/],
      [["chat", "notes.txt"], /^june: "notes\.txt" is not a module/],
      [["run", "a.tsx", "b.tsx"], /^june: Unexpected argument "b\.tsx"/],
      [["studio", "--port", "http"], /^june: Option --port needs a value|^june: Bad --port/],
      [["sessions", "show"], /^june: june sessions show needs <id>: june sessions show <id> \[--store DIR\] \[--json\] \(e\.g\. june sessions show /],
      [["run"], /^june: june run needs <file>: june run <file> .*\(e\.g\. june run examples\/first-workflow\.tsx --input "the bicycle"\)\n$/],
      [["chta"], /^june: Unknown command "chta": did you mean "june chat"\? \(see june --help\)\n$/],
      [["sessions", "lst"], /^june: Unknown command "lst": did you mean "june sessions list"\? \(see june sessions --help\)\n$/],
      [["ask", "--modle", "openai:x", "hi"], /^june: Unknown option --modle for "ask": did you mean --model\? \(see june ask --help\)\n$/],
      [["sessions"], /^june: june sessions: pass a command \(list, show, export, rm\); see june sessions --help\n$/],
    ];
    for (const [argv, stderr] of cases) {
      const result = await june(argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).toMatch(stderr);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(result.stdout).toBe("");
    }
  });

  it("asks a model chat, keeps the session in the store, and continues it with --session", async () => {
    server = await createFakeOpenAIServer({ script: ["First reply.", "Second reply."] });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const first = await june(["ask", "--model", "openai:gpt-5-mini", "Hello", "there"], { cwd, env });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("First reply.");
    const id = /session (\S+)/.exec(first.stderr)?.[1];
    expect(id).toBeDefined();

    const second = await june(["ask", "--model", "openai:gpt-5-mini", "--session", id!, "And", "now?"], { cwd, env });
    expect(second.stdout).toBe("Second reply.");
    const sent = JSON.stringify(server.requests[1]!.body.input);
    expect(sent).toContain("Hello there");
    expect(sent).toContain("First reply.");
    expect(sent).toContain("And now?");

    const list = await june(["sessions", "list"], { cwd });
    // Not a terminal: tab-separated columns, no header.
    expect(list.stdout).toMatch(new RegExp(`^${id}\\t\\d{4}-\\d\\d-\\d\\dT[^\\t]+\\t2\\tHello there\\n$`));
    const show = await june(["sessions", "show", id!], { cwd });
    expect(show.stdout).toBe("› Hello there\nFirst reply.\n\n› And now?\nSecond reply.\n");
    const missing = await june(["ask", "--model", "openai:gpt-5-mini", "--session", "nope", "x"], { cwd, env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('june: --session: No session "nope"\n');
  });

  it("takes a prefix of a session id wherever it takes an id (show, export, rm, --session, resume)", async () => {
    server = await createFakeOpenAIServer({ script: ["One.", "Two.", "Three."] });
    const cwd = tempDir();
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const first = await june(["ask", "--model", "openai:gpt-5-mini", "Hello"], { cwd, env });
    const id = /session (\S+)/.exec(first.stderr)![1]!;
    const prefix = id.slice(0, 6);

    const show = await june(["sessions", "show", prefix], { cwd });
    expect(show.code).toBe(0);
    expect(show.stdout).toBe("› Hello\nOne.\n");
    // As the help prints it, with the ellipsis.
    expect((await june(["sessions", "show", `${prefix}…`], { cwd })).stdout).toBe("› Hello\nOne.\n");
    expect((await june(["sessions", "export", prefix], { cwd })).stdout).toContain(`"id":"${id}"`);
    const next = await june(["ask", "--model", "openai:gpt-5-mini", "--session", prefix, "Again"], { cwd, env });
    expect(next.code).toBe(0);
    expect(next.stderr).toContain(`session ${id}`);

    const missing = await june(["sessions", "rm", "zz"], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('june: No session "zz" in .june/chat\n');

    const rm = await june(["sessions", "rm", prefix], { cwd });
    expect(rm.code).toBe(0);
    expect(rm.stderr).toContain(`deleted session ${id}`);
  });

  it("exports a session redacted and removes it", async () => {
    server = await createFakeOpenAIServer({ script: ["Noted."] });
    const cwd = tempDir();
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.url };
    const asked = await june(["ask", "--model", "openai:gpt-5-mini", `my key is ${secret}`], { cwd, env });
    const id = /session (\S+)/.exec(asked.stderr)![1]!;

    const exported = await june(["sessions", "export", id], { cwd });
    expect(exported.code).toBe(0);
    const entries = exported.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; input?: string });
    expect(entries.map((entry) => entry.type)).toEqual(["session", "turn-start", "turn-end"]);
    expect(exported.stdout).not.toContain(secret);
    expect(entries[1]!.input).toContain("my key is");

    const rm = await june(["sessions", "rm", id], { cwd });
    expect(rm.code).toBe(0);
    expect((await june(["sessions", "list", "--json"], { cwd })).stdout).toBe("");
    const again = await june(["sessions", "rm", id], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`june: No session "${id}" in .june/chat\n`);
  });

  it("fails with exit code 1 when the turn fails", async () => {
    server = await createFakeOpenAIServer({ script: [{ error: { status: 401, message: "Incorrect API key provided" } }] });
    const result = await june(["ask", "--model", "openai:gpt-5-mini", "hi"], {
      env: { OPENAI_API_KEY: "sk-wrong", OPENAI_BASE_URL: server.url },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^june: the turn failed: OpenAI refused the API key \(401: Incorrect API key provided\): check OPENAI_API_KEY\n/,
    );
  });
});
