/**
 * docs/getting-started.md, run as written by a newcomer, in an empty folder outside the repository: its new-project
 * commands, its install line for this Node (June itself from `npm pack`, the rest from the npm registry), its
 * TypeScript step and `tsconfig.json`, the first workflow (`npx tsx` and `npx june run`), the first chat and the
 * workflow chat (`npx june ask`), then `tsc` over all of it. Every command, file name and file is read out of the
 * page, so the page and this test cannot drift. The page's model is `openai("gpt-5-mini")`: here June's fake OpenAI
 * server answers it, through `OPENAI_BASE_URL` (the provider's own variable; the code is the page's, unchanged).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageDir, packJune } from "../cli/__fixtures__/built-bin.js";
import { createFakeOpenAIServer, type FakeOpenAIServer } from "../testing/index.js";
import { fencedBlocks, type FencedBlock } from "./__fixtures__/doc-blocks.js";

const page = readFileSync(join(packageDir, "../../docs/getting-started.md"), "utf8");

/** The page's `## title` section, up to the next `## `. */
function section(title: string): string {
  const start = page.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/getting-started.md has no "## ${title}" section`);
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

function only(blocks: FencedBlock[], what: string): FencedBlock {
  if (blocks.length !== 1) throw new Error(`docs/getting-started.md: expected one ${what}, found ${blocks.length}`);
  return blocks[0]!;
}

/** The first inline code span of `text` that `pattern` matches (its group 1, or the whole match). */
function inline(text: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`docs/getting-started.md: no ${what} (${pattern})`);
  return match[1] ?? match[0];
}

const project = section("In your project");
const newProject = only(fencedBlocks(project).filter((b) => b.lang === "sh" && b.code.includes("npm init")), "new-project block");
const nodeMajor = Number(process.versions.node.split(".")[0]);
// "On Node 22 or 24:" and "On Node 20, name the AI SDK 6 line ...:": the line for this Node.
// June is not on the registry: the page installs it from the tarball `npm pack` writes, by a path the reader fills in.
const JUNE_TARBALL = /(npm install )(\S*june-[\d.]+\.tgz)/;
const installs = fencedBlocks(project).filter((b) => b.lang === "sh" && JUNE_TARBALL.test(b.code));
const install = only(
  installs.filter((b) => (nodeMajor >= 22 ? /On Node 22/.test(b.before) : /On Node 20/.test(b.before))),
  `install block for Node ${nodeMajor}`,
);

const typescript = section("TypeScript and JSX");
const typesInstall = inline(typescript, /`(npm install -D [^`]+)`/, "TypeScript install");
const tsconfig = only(fencedBlocks(typescript).filter((b) => b.lang === "json"), "tsconfig.json block");
const typeCheck = inline(typescript, /`(npx tsc[^`]*)`/, "tsc command");

const first = section("A first workflow");
const workflow = only(fencedBlocks(first).filter((b) => b.lang === "tsx"), "workflow block");
const workflowFile = inline(first, /Save it as `([^`]+)`/, "workflow file name");
const workflowWithTsx = inline(first, new RegExp(`\`(npx tsx ${workflowFile})\``), "npx tsx command");
const workflowWithJune = inline(first, new RegExp(`\`(npx june run ${workflowFile})\``), "npx june run command");

const chats = section("A first chat");
const chatBlocks = fencedBlocks(chats).filter((b) => b.lang === "ts" || b.lang === "tsx");
const firstChat = only(chatBlocks.filter((b) => b.lang === "ts"), "first chat block");
const [, firstChatFile, firstChatRun] = /Saved as `([^`]+)`, `(npx tsx [^`]+)`/.exec(chats) ?? [];
const workflowChat = only(chatBlocks.filter((b) => b.lang === "tsx"), "workflow chat block");
const workflowChatFile = inline(chats, /Saved as `([^`]+\.tsx)`/, "workflow chat file name");
const workflowChatAsk = inline(chats, new RegExp(`\`(npx june ask ${workflowChatFile} [^\`]+)\``), "npx june ask command");

const FACTS = "1. The draisine of 1817. 2. Pedals in the 1860s. 3. The safety bicycle of 1885.";
const SUMMARY = "The bicycle went from a pushed draisine to the chain-driven safety bicycle in seventy years.";
const MONOREPO = "A monorepo keeps many projects in one repository.";
const ASKED = "You asked something; here is a short answer.";

let root = "";
let server: FakeOpenAIServer;
let tarball = "";

/** A fresh terminal's environment (none of the test runner's `npm_*` settings), the provider at the fake server. */
function env(): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_|^INIT_CWD$|^VITEST/i.test(name)));
  return { ...clean, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-getting-started" };
}

/**
 * A command of the page, run by bash in `cwd`, as a reader types it (asynchronously: the fake server answering it
 * lives in this process).
 */
function sh(command: string, cwd: string, timeout = 120_000): Promise<{ status: number | null; stdout: string; stderr: string; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", command], { cwd, env: env(), timeout, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("close", (status) => resolve({ status, stdout, stderr, out: `$ ${command}\n${stdout}\n${stderr}` }));
  });
}

describe("docs/getting-started.md, followed in an empty folder outside the repository", () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "june-getting-started-"));
    tarball = join(root, packJune(root));
    server = await createFakeOpenAIServer({
      script: ({ body }) => {
        const asked = JSON.stringify(body);
        if (asked.includes("three key facts")) return FACTS;
        if (asked.includes("Summarize in one sentence")) return asked.includes("draisine") ? SUMMARY : "The facts never reached the summary.";
        if (asked.includes("What is a monorepo?")) return MONOREPO;
        return ASKED;
      },
    });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("a new project, June installed, the first workflow and both chats run, and tsc passes with the page's tsconfig", async () => {
    // The new project: `mkdir my-agent && cd my-agent`, `npm init -y && npm pkg set type=module`.
    const created = await sh(newProject.code, root);
    expect(created.status, created.out).toBe(0);
    const dir = join(root, inline(newProject.code, /mkdir (\S+)/, "project folder"));
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type).toBe("module");

    // The install line for this Node, with June from the packed tarball (it is not on the registry).
    const installed = await sh(install.code.replace(JUNE_TARBALL, `$1${tarball}`), dir, 300_000);
    expect(installed.status, installed.out).toBe(0);
    expect(installed.stderr).not.toMatch(/ERESOLVE|conflict/i);
    const types = await sh(typesInstall, dir, 300_000);
    expect(types.status, types.out).toBe(0);
    writeFileSync(join(dir, "tsconfig.json"), tsconfig.code);

    // The first workflow, both ways the page runs it.
    writeFileSync(join(dir, workflowFile), workflow.code);
    const byTsx = await sh(workflowWithTsx, dir);
    expect(byTsx.status, byTsx.out).toBe(0);
    expect(byTsx.stdout, byTsx.out).toContain(SUMMARY);
    expect(byTsx.stderr.trim().split("\n").at(-1), byTsx.out).toBe("done");
    const byJune = await sh(workflowWithJune, dir);
    expect(byJune.status, byJune.out).toBe(0);
    expect(byJune.stdout, byJune.out).toContain(SUMMARY);

    // The first chat, then the workflow chat through `june ask`.
    expect(firstChatFile, "the page names the first chat's file and its command").toBeDefined();
    writeFileSync(join(dir, firstChatFile!), firstChat.code);
    const chatted = await sh(firstChatRun!, dir);
    expect(chatted.status, chatted.out).toBe(0);
    expect(chatted.stdout, chatted.out).toContain(MONOREPO);
    expect(existsSync(join(dir, ".june/chat")), chatted.out).toBe(true);
    writeFileSync(join(dir, workflowChatFile), workflowChat.code);
    const asked = await sh(workflowChatAsk, dir);
    expect(asked.status, asked.out).toBe(0);
    expect(asked.stdout, asked.out).toContain(ASKED);

    // Every request reached the fake server with the key from the environment, none the real OpenAI.
    expect(server.requests.length).toBe(2 + 2 + 1 + 1);
    expect(server.requests.every((request) => request.headers.authorization === "Bearer sk-getting-started")).toBe(true);

    // `tsc` with exactly the page's tsconfig, over every file the page had the reader write.
    const checked = await sh(typeCheck, dir);
    expect(checked.status, checked.out).toBe(0);
  }, 900_000);
});
