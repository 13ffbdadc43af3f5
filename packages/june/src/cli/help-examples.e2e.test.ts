/**
 * Every example that a `--help` prints runs, as printed, with the BUILT `june`: the files it names exist (the
 * shipped examples), `3f2a…` / `9c41…` stand for a real session's and turn's id (a prefix with the ellipsis, as
 * printed), and the models it names answer through June's fake provider servers. A pipe's producer becomes
 * stdin; what follows `|` or `>` after `june` is left out. `june studio` serves until Ctrl-C: its examples are
 * checked for the files they name only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeAnthropicServer, type FakeAnthropicServer } from "../testing/fake-anthropic-server.js";
import { createFakeGoogleServer, type FakeGoogleServer } from "../testing/fake-google-server.js";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/fake-openai-server.js";
import { ensureBuilt, packageDir } from "./__fixtures__/built-bin.js";
import { spawnJune, until } from "./__fixtures__/spawn-june.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { commandHelps } from "./help.js";
import { juneCommand } from "./main.js";

const root = join(packageDir, "../..");
const cwd = mkdtempSync(join(tmpdir(), "june-help-examples-"));
let openai: FakeOpenAIServer;
let anthropic: FakeAnthropicServer;
let google: FakeGoogleServer;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  // The examples' paths are relative to the repository's root: the same `examples/` here, with a store of its own.
  symlinkSync(join(root, "examples"), join(cwd, "examples"));
  mkdirSync(join(cwd, "notes/.june/chat"), { recursive: true }); // `--store ~/notes/.june/chat`
  openai = await createFakeOpenAIServer({ script: () => "A reply from the fake OpenAI server." });
  anthropic = await createFakeAnthropicServer({ script: () => "A reply from the fake Anthropic server.", apiKey: "test-key" });
  google = await createFakeGoogleServer({ script: () => "A reply from the fake Gemini server.", apiKey: "test-key" });
  env = {
    NO_COLOR: "1",
    OPENAI_API_KEY: "sk-test",
    OPENAI_BASE_URL: openai.url,
    OLLAMA_BASE_URL: openai.url,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: anthropic.url,
    GOOGLE_GENERATIVE_AI_API_KEY: "test-key",
    GOOGLE_GENERATIVE_AI_BASE_URL: google.url,
  };
}, 180_000);

afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close(), google?.close()]);
  rmSync(cwd, { recursive: true, force: true });
});

/** A shell line's words: plain, "double" (with \" inside) or 'single' quoted; `|` and `>` as words of their own. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([|>])|([^\s"'|>]+)/g;
  for (let match = re.exec(line); match; match = re.exec(line)) {
    out.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3] ?? match[4])!);
  }
  return out;
}

/** The `june` command of an example line (without `june`), and the stdin a producer before it gives. */
function parse(line: string): { args: string[]; stdin: string } {
  const all = words(line);
  const at = all.indexOf("june");
  const before = all.slice(0, at);
  let stdin = "";
  if (before[0] === "printf") stdin = before[1]!.replace(/\\n/g, "\n");
  else if (before.length > 0) stdin = "diff --git a/x b/x\n-old line\n+new line\n";
  // `~` is the home the spawned june gets (the test's folder), as a shell would expand it.
  const after = all.slice(at + 1).map((word) => (word.startsWith("~/") ? join(cwd, word.slice(2)) : word));
  const end = after.findIndex((word) => word === "|" || word === ">");
  return { args: end === -1 ? after : after.slice(0, end), stdin };
}

/** A durable turn of examples/offline.tsx left waiting on its approval by a process killed with SIGKILL. */
function suspendedTurn(): { sessionId: string; turnId: string } {
  const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
  const script = join(cwd, "kill-while-asking.mts");
  writeFileSync(
    script,
    `import offlineChat from ${JSON.stringify(pathToFileURL(join(root, "examples/offline.tsx")).href)};
const session = await offlineChat().createSession();
const turn = session.send("Deploy the docs to staging");
for await (const event of turn) {
  if (event.type !== "approval-request") continue;
  console.log(JSON.stringify({ sessionId: session.id, turnId: turn.id }));
  // Long enough for the checkpoint that holds the request to be written; then the process dies.
  setTimeout(() => process.kill(process.pid, "SIGKILL"), 1_000);
}
`,
  );
  let out = "";
  try {
    execFileSync(process.execPath, ["--import", tsx, script], { cwd, encoding: "utf8", timeout: 60_000 });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout ?? "");
  }
  return JSON.parse(out.trim().split("\n")[0]!) as { sessionId: string; turnId: string };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function june(args: string[], stdin: string): Promise<Ran> {
  const child = spawnJune(args, { cwd, env, stdin });
  const code = await child.code;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

const examples = (await commandHelps(juneCommand(createFakeIO()))).flatMap(([path, help]) => help.examples.map(([line]) => ({ path, line })));

describe("every --help example", () => {
  it("names only files that exist", () => {
    for (const { line } of examples) {
      for (const word of words(line)) {
        if (/\.(tsx?|mjs|js)$/.test(word)) expect(existsSync(join(root, word)), `${line}: ${word}`).toBe(true);
      }
    }
  });

  // What the examples need that an earlier one leaves: a session (for 3f2a…), cases (for june eval).
  let firstSession = "";
  let casesMade = false;
  beforeAll(async () => {
    const first = await june(["ask", "examples/offline.tsx", "Deploy the docs to staging", "--yes"], "");
    expect(first.code, first.stderr).toBe(0);
    firstSession = /session (\S+)/.exec(first.stderr)![1]!;
  }, 120_000);

  for (const { path, line } of examples) {
    // `june studio` and `june worker` serve until Ctrl-C, and `june schedule` needs a queue (PostgreSQL, Node
    // 22.12+; src/worker/worker-cli.test.ts runs it): their examples are checked for their files above.
    if (/^(studio|worker|schedule)\b/.test(path) || /^june (studio|worker|schedule)\b/.test(line)) continue;
    it(`runs: ${line}`, async () => {
      const resuming = / resume /.test(` ${line} `);
      const target = resuming ? suspendedTurn() : undefined;
      // `sessions rm` deletes what it names: a session of its own.
      const removed = line.includes("sessions rm") ? await june(["ask", "--model", "openai:gpt-5-mini", "Hi"], "") : undefined;
      const session = target?.sessionId ?? (removed ? /session (\S+)/.exec(removed.stderr)![1]! : firstSession);
      const { args, stdin } = parse(line.replaceAll("3f2a…", `${session.slice(0, 8)}…`).replaceAll("9c41…", `${target?.turnId.slice(0, 8) ?? ""}…`));
      if (args[0] === "eval" && !casesMade) {
        // Every completed turn as a case (the dataset example before wrote the thumbs-up ones: none).
        casesMade = true;
        const dataset = await june(["dataset", "--out", "cases.jsonl"], "");
        expect(dataset.code, dataset.stderr).toBe(0);
      }
      if (resuming && !args.includes("--yes") && !args.includes("--deny") && !args.includes("--cancel")) {
        // It asks at a terminal: answer y there.
        const child = spawnJune(args, { cwd, env, terminal: true });
        await until(() => /\[y\/N\]|\(y\/n\)|\by\b.*\bn\b/i.test(child.stdout()), `the approval prompt of: ${line}`);
        child.write("y\r");
        const code = await child.code;
        expect(code, `${line}\n${child.stdout()}`).toBe(0);
        expect(child.stdout()).toContain("docs is live on staging");
        return;
      }
      const result = await june(args, stdin);
      // `june eval ... --min 0.8` fails by design when the mean is below it (exit 1, as its help says).
      const expected = line.includes("--min") ? [0, 1] : [0];
      expect(expected, `${line}\nexit ${result.code}\n${result.stderr}`).toContain(result.code);
    }, 120_000);
  }
});
