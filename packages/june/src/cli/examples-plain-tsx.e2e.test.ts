/**
 * The shipped examples run outside the CLI too: imported by a script under plain `node --import tsx`, from a
 * folder outside the repository with no tsconfig of its own. Their JSX settings travel with them (the
 * `@jsxRuntime` / `@jsxImportSource` pragmas); without those, a turn failed with "React is not defined".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, packageDir } from "./__fixtures__/built-bin.js";

const root = join(packageDir, "../..");
const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const dir = mkdtempSync(join(tmpdir(), "june-plain-tsx-"));

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(name: string, source: string): string {
  const file = join(dir, name);
  writeFileSync(file, source);
  return execFileSync(process.execPath, ["--import", tsx, file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
}

describe("the examples under plain tsx", () => {
  it("offline.tsx answers a turn, approved, and leaves one completed session", () => {
    const example = pathToFileURL(join(root, "examples/offline.tsx")).href;
    const out = runScript(
      "offline.mts",
      `import offlineChat from ${JSON.stringify(example)};
const session = await offlineChat().createSession();
const turn = session.send("Deploy the docs to staging");
for await (const event of turn) if (event.type === "approval-request") turn.approve(event.request.id);
const result = await turn.result;
console.log(JSON.stringify(result.text));
`,
    );
    expect(out).toMatch(/^".*docs is live on staging/);
    expect(readdirSync(join(dir, ".june/chat")).filter((name) => name.endsWith(".jsonl"))).toHaveLength(1);
  });

  it("first-workflow.tsx renders and runs with start()", () => {
    const example = pathToFileURL(join(root, "examples/first-workflow.tsx")).href;
    const june = pathToFileURL(join(packageDir, "dist/index.js")).href;
    const out = runScript(
      "workflow.mts",
      `import Research from ${JSON.stringify(example)};
import { start } from ${JSON.stringify(june)};
const result = await start(Research({ input: "the bicycle" })).result;
console.log(String(result.steps.summary));
`,
    );
    expect(out).toContain("Bicycles went from");
  });
});
