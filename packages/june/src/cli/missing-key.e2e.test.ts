/**
 * End to end (issue 41): the BUILT `june` on a chat module and a workflow module whose model is
 * `openai("gpt-5-mini")` from `june/sdk/openai`, with no `OPENAI_API_KEY` in the environment. The provider throws
 * `LoadAPIKeyError` when the model is called; the CLI says so in one line naming the variable it reads, with no
 * stack trace, and exits non-zero.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "./__fixtures__/built-bin.js";
import { spawnJune } from "./__fixtures__/spawn-june.js";

beforeAll(() => {
  ensureBuilt();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), "june-missing-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "chat.ts"),
  `import { createChat, memoryStore } from "june/chat";\nimport { openai } from "june/sdk/openai";\n` +
    `export default createChat({ model: openai("gpt-5-mini"), store: memoryStore() });\n`,
);
writeFileSync(
  join(dir, "workflow.tsx"),
  `/** @jsxRuntime automatic */\n/** @jsxImportSource june */\nimport { Agent, Step } from "june";\nimport { openai } from "june/sdk/openai";\n` +
    `export default <Agent model={openai("gpt-5-mini")}><Step id="a" prompt="hi" /></Agent>;\n`,
);

const LINE = /no API key: the model's provider reads it from the environment variable OPENAI_API_KEY .*scriptedModel from june\/testing$/;

describe("a model with no API key", { timeout: 60_000 }, () => {
  it.each([
    { command: ["ask", "chat.ts", "What is a monorepo?"], what: "turn" },
    { command: ["run", "workflow.tsx"], what: "run" },
  ])("june $command.0 says which variable the provider reads, in one line, no stack", async ({ command, what }) => {
    // Only PATH and HOME: no OPENAI_API_KEY (nor the test runner's).
    const run = spawnJune(command, { cwd: dir, env: { NO_COLOR: "1" } });
    const code = await run.code;
    expect(code, run.stderr()).not.toBe(0);
    const lines = run.stderr().trim().split("\n");
    const errors = lines.filter((line) => line.startsWith("june:"));
    expect(errors, run.stderr()).toHaveLength(1);
    expect(errors[0], run.stderr()).toMatch(new RegExp(`^june: the ${what} failed: ${LINE.source}`));
    expect(run.stderr()).not.toMatch(/^\s+at /m);
    expect(run.stderr()).not.toContain("LoadAPIKeyError");
    expect(run.stdout()).toBe("");
  });
});
