/**
 * End to end: the BUILT `june` with `--mcp`, a real MCP server (the fixture, over stdio and Streamable HTTP)
 * and the fake OpenAI server as the model, through `@ai-sdk/openai`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt } from "../cli/__fixtures__/built-bin.js";
import { createFakeOpenAIServer, type FakeOpenAIRequestInfo, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { startHttpFixture, type HttpFixture } from "./__fixtures__/http-server.js";

const STDIO_SERVER = fileURLToPath(new URL("./__fixtures__/stdio-server.mjs", import.meta.url));
const example = fileURLToPath(new URL("../../../../examples/mcp.tsx", import.meta.url));
const echoAgent = fileURLToPath(new URL("./__fixtures__/echo-agent.tsx", import.meta.url));
const echoWorkflow = fileURLToPath(new URL("./__fixtures__/echo-workflow.tsx", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "june-mcp-e2e-"));

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function june(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end("");
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** The text of the last function call output in a Responses API request, or undefined when there is none. */
function toolOutput(body: { input?: { type?: string; output?: unknown }[] }): string | undefined {
  const item = [...(body.input ?? [])].reverse().find((i) => i.type === "function_call_output");
  if (!item) return undefined;
  const output = item.output;
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((part: { text?: string }) => part.text ?? "").join("");
  return JSON.stringify(output);
}

/** A model that calls `add` with 2 and 3, then says what the tool answered. */
function adder(request: FakeOpenAIRequestInfo) {
  const output = toolOutput(request.body);
  if (output === undefined) return { toolCalls: [{ toolName: "add", input: { a: 2, b: 3 } }] };
  return `The tool said ${output}.`;
}

function readLog(file: string): { event: string; pid?: number; tool?: string }[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("june --mcp", () => {
  let openai: FakeOpenAIServer;
  let http: HttpFixture;
  beforeAll(async () => {
    openai = await createFakeOpenAIServer({ script: adder });
    http = await startHttpFixture();
  });
  afterAll(async () => {
    await openai.close();
    await http.close();
  });
  const env = () => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.url });

  it("june ask --model ... --mcp 'node server' --yes answers with the MCP tool's result; the server's process is gone after", async () => {
    const log = join(dir, "ask.jsonl");
    const { code, stdout, stderr } = await june(
      ["ask", "--model", "openai:gpt-5-mini", "--mcp", `node ${STDIO_SERVER}`, "--yes", "What is 2 + 3?"],
      { ...env(), MCP_FIXTURE_LOG: log },
    );
    expect(stderr).toContain("approved add");
    expect(code).toBe(0);
    expect(stdout).toBe("The tool said 5.");
    const entries = readLog(log);
    expect(entries.filter((e) => e.event === "call")).toEqual([{ event: "call", tool: "add", input: { a: 2, b: 3 } }]);
    expect(alive(entries[0]!.pid!)).toBe(false);
  });

  it("with no terminal and no --yes, the call is denied and never reaches the server", async () => {
    const log = join(dir, "deny.jsonl");
    const { code, stdout, stderr } = await june(["ask", "--model", "openai:gpt-5-mini", "--mcp", `node ${STDIO_SERVER}`, "What is 2 + 3?"], {
      ...env(),
      MCP_FIXTURE_LOG: log,
    });
    expect(code).toBe(0);
    expect(stderr).toContain("denied add (no one to approve)");
    expect(stdout).toMatch(/^The tool said /);
    expect(readLog(log).filter((e) => e.event === "call")).toEqual([]);
  });

  it("june chat --mcp URL: a Streamable HTTP server's tools in a model chat", async () => {
    http.calls.length = 0;
    const { code, stdout } = await june(["chat", "--model", "openai:gpt-5-mini", "--mcp", http.url, "--yes"], env());
    // stdin was empty: the chat ended at once, having connected nothing.
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(http.calls).toEqual([]);
    const child = spawn(process.execPath, [bin, "chat", "--model", "openai:gpt-5-mini", "--mcp", http.url, "--yes"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", ...env() },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stdin.end("What is 2 + 3?\n");
    const exit = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(exit).toBe(0);
    expect(out).toContain("The tool said 5.");
    expect(http.calls).toEqual([{ tool: "add", input: { a: 2, b: 3 } }]);
  });

  it("adds a server's tools to a module's agents (a module exporting a Chat)", async () => {
    const log = join(dir, "module.jsonl");
    const without = await june(["ask", echoAgent, "say hello"]);
    expect(without.stdout).toBe("no echo tool (tools: none)");
    const { code, stdout } = await june(["ask", echoAgent, "--mcp", `node ${STDIO_SERVER}`, "--yes", "say hello"], { MCP_FIXTURE_LOG: log });
    expect(code).toBe(0);
    expect(stdout).toBe("echoed: say hello");
    expect(readLog(log).filter((e) => e.event === "call")).toEqual([{ event: "call", tool: "echo", input: { text: "say hello" } }]);
  });

  it("june run --mcp adds the tools to a workflow's steps", async () => {
    const { code, stdout, stderr } = await june(["run", echoWorkflow, "--input", "hi there", "--mcp", `node ${STDIO_SERVER}`, "--yes"]);
    expect(stderr).toContain("approved echo");
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("echoed: hi there");
  });

  it("runs the offline example, whose own <McpTools> start the fixture server", async () => {
    const { code, stdout, stderr } = await june(["ask", example, "--yes", "Remember to water the plants"]);
    expect(code).toBe(0);
    expect(stderr).toContain("approved note_save");
    expect(stdout).toBe("saved note 1");
  });

  it("a server that cannot start fails the turn with an error naming it (exit 1)", async () => {
    const { code, stderr } = await june(["ask", "--model", "openai:gpt-5-mini", "--mcp", join(dir, "no-such-server --flag"), "hi"], env());
    expect(code).toBe(1);
    expect(stderr).toMatch(/MCP server ".*no-such-server --flag" could not be connected/);
  });

  it("a bad --mcp value is a usage error (exit 2)", async () => {
    const { code, stderr } = await june(["ask", "--model", "openai:gpt-5-mini", "--mcp", "'unclosed", "hi"], env());
    expect(code).toBe(2);
    expect(stderr).toMatch(/a quote is not closed/);
  });
});
