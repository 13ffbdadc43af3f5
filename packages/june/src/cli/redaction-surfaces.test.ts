import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat, fileStore, type Responder } from "june/chat";
import { createChatHandler } from "june/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
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
    expect(outputs["sessions list --json"]!.trim().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual(listed.sessions);
  });
});
