/**
 * End to end on the BUILT library: a turn loads only what it uses. A model chat's turn over memoryStore loads
 * neither the agent runtime (`agentResponder` loads it on its first turn), nor fileStore's core (loaded on the
 * store's first call); an agent chat's first turn loads the runtime and answers. Built first when dist is missing or older
 * than the source.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuilt, packageDir, traceImport } from "../cli/__fixtures__/built-bin.js";

beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), "june-turn-loads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ownDist = pathToFileURL(join(packageDir, "dist")).href;
const entry = (path: string) => JSON.stringify(pathToFileURL(join(packageDir, "dist", path)).href);

/** Runs `script` (an ES module) and answers its stdout and the files of this package's dist it loaded, in order. */
function traced(name: string, script: string): { stdout: string; urls: string[] } {
  const trace = join(dir, `${name}.txt`);
  writeFileSync(trace, "");
  const result = spawnSync(process.execPath, ["--import", traceImport, "--input-type=module", "-e", script], {
    env: { ...process.env, JUNE_TRACE_FILE: trace },
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  return { stdout: result.stdout, urls: readFileSync(trace, "utf8").split("\n").filter((url) => url.startsWith(ownDist)) };
}

/** True when a file loaded holds `module` (tsc's output, which the bundle names in a comment where it inlines it). */
const holds = (urls: string[], module: string) => urls.some((url) => readFileSync(new URL(url), "utf8").includes(`\n// dist/${module}\n`));
const runtime = (urls: string[]) => holds(urls, "runtime/start.js");
const fileCore = (urls: string[]) => holds(urls, "stores/file-store-core.js");

it("a model chat's turn over memoryStore loads no agent runtime and no fileStore core, in a few files", { timeout: 60_000 }, () => {
  const { stdout, urls } = traced(
    "model",
    `const { createChat } = await import(${entry("chat/index.js")});
     const { scriptedModel } = await import(${entry("testing/index.js")});
     const session = await createChat({ model: scriptedModel("hello") }).createSession();
     const turn = await session.send("hi");
     process.stdout.write((await turn.result).text);`,
  );
  expect(stdout).toBe("hello");
  expect(runtime(urls)).toBe(false);
  expect(fileCore(urls)).toBe(false);
  // One build's chunks: june/chat's graph is a handful of files (each file costs its load), not one per module.
  expect(urls.length).toBeLessThan(15);
});

it("an agent chat's first turn, which loads the agent runtime, answers", { timeout: 60_000 }, () => {
  const { stdout, urls } = traced(
    "agent",
    `const { createChat, agentResponder } = await import(${entry("chat/index.js")});
     const { scriptedModel } = await import(${entry("testing/index.js")});
     const { Agent, Step } = await import(${entry("index.js")});
     const { jsx } = await import(${entry("jsx/jsx-runtime.js")});
     const model = scriptedModel("agent says hi");
     const responder = agentResponder({
       render: ({ input }) => jsx(Agent, { model, children: jsx(Step, { id: "r", prompt: input }) }),
       reply: (run) => String(run.steps.r),
     });
     const session = await createChat({ responder }).createSession();
     const turn = await session.send("hi");
     process.stdout.write((await turn.result).text);`,
  );
  expect(stdout).toBe("agent says hi");
  expect(runtime(urls)).toBe(true);
});
