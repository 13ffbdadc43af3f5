/**
 * End to end: the BUILT `june dataset` and `june eval` (dist/cli/bin.js, run with node as a real process)
 * over sessions journaled by a real chat in a fileStore, with a module that imports `june/learning`.
 * Built first when dist is missing or older than the source.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, ensureBuilt } from "./__fixtures__/built-bin.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChat } from "../chat/create-chat.js";
import { parseJSONL } from "../learning/jsonl.js";
import type { EvalReport } from "../learning/types.js";
import { fileStore } from "../stores/file-store.js";
import echo from "./__fixtures__/echo-responder.js";

const fixture = fileURLToPath(new URL("./__fixtures__/echo-responder.ts", import.meta.url));


const dir = mkdtempSync(join(tmpdir(), "june-learning-e2e-"));

beforeAll(async () => {
  ensureBuilt();
  // Two sessions answered by the fixture's own responder, with feedback on two turns.
  const chat = createChat({ responder: echo, store: fileStore(join(dir, "store")) });
  const first = await chat.createSession({ id: "first" });
  const a = first.send("alpha");
  await a.result;
  const b = first.send("beta, with my key sk-proj-0123456789abcdefghijklmn");
  await b.result;
  await first.send("gamma").result;
  await first.feedback(a.id, { score: 1, comment: "good" });
  await first.feedback(b.id, { score: -1 });
  await first.feedback(b.id, { score: 0.9, tags: ["fixed"] });
  const second = await chat.createSession({ id: "second" });
  await second.send("delta").result;
  await second.feedback((await second.turns())[0]!.id, { score: 0 });
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built `june` with `args` in the temp dir. */
function june(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("june dataset and june eval (built)", { timeout: 90_000 }, () => {
  it("june dataset prints the cases as redacted JSON lines, filtered by feedback, to stdout or --out", async () => {
    const all = await june(["dataset", "--store", "store"]);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe("4 cases\n");
    expect(all.stdout).not.toContain("sk-proj-");
    const cases = parseJSONL(all.stdout);
    expect(cases.map((c) => c.id).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/^first\//), expect.stringMatching(/^second\//)]));
    const gamma = cases.find((c) => c.input === "gamma")!;
    // The reply says how many messages the turn was answered after; the case carries exactly those.
    expect(gamma.reply).toBe("re: gamma (after 4)");
    expect(gamma.messages).toHaveLength(4);
    expect(gamma.metadata).toMatchObject({ sessionId: "first", responder: { kind: "custom", id: "echo", version: "v1" }, usage: { totalTokens: 9 } });

    const up = await june(["dataset", "--store", "store", "--filter", "up", "--out", "up.jsonl"]);
    expect(up).toMatchObject({ code: 0, stdout: "", stderr: "2 cases (up) written to up.jsonl\n" });
    const upCases = parseJSONL(readFileSync(join(dir, "up.jsonl"), "utf8"));
    expect(upCases.map((c) => [c.input.slice(0, 5), c.feedback])).toEqual([
      ["alpha", { score: 1, comment: "good" }],
      ["beta,", { score: 0.9, tags: ["fixed"] }],
    ]);
    const down = await june(["dataset", "--store", "store", "--filter", "down"]);
    expect(parseJSONL(down.stdout).map((c) => c.input)).toEqual(["delta"]);
    expect((await june(["dataset", "--store", "store", "--filter", "sideways"])).code).toBe(2);
  });

  it("june eval replays the cases with the module's responder: a table on stdout, the report with --out, exit 1 under --min", async () => {
    const written = await june(["dataset", "--store", "store", "--out", "cases.jsonl"]);
    expect(written.code).toBe(0);

    const same = await june(["eval", fixture, "cases.jsonl", "--scorer", "exactMatch", "--min", "1"]);
    expect(same.stderr).toMatch(/^4 cases · \d+\.\ds\n$/);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe("scorer      mean   min   max        pass\nexactMatch  1.00  1.00  1.00  4/4 (≥0.5)\n");

    // The module's `scorers` (from june/learning) are used when no --scorer is named.
    const own = await june(["eval", fixture, "cases.jsonl", "--json"]);
    expect(own.code).toBe(0);
    const ownReport = JSON.parse(own.stdout) as EvalReport;
    expect(Object.keys(ownReport.stats)).toEqual(["exact", "mentions"]);
    expect(ownReport.stats.exact!.mean).toBe(1);
    expect(ownReport.cases[0]!.usage).toMatchObject({ outputTokens: 4 });

    const changed = await june(["eval", fixture, "cases.jsonl", "--scorer", "exact,mentions", "--min", "0.9", "--out", "report.json"], {
      JUNE_TEST_VERSION: "v2",
    });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^scorer +mean/);
    expect(changed.stderr).toContain("june: exact mean 0.00 is below --min 0.9");
    expect(changed.stderr).not.toContain("mentions mean");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as EvalReport;
    expect(report.responder).toEqual({ kind: "custom", id: "echo", version: "v2" });
    expect(report.stats.mentions!.mean).toBe(1);
    expect(report.cases.map((c) => c.reply)).toContain("RE: gamma");
    expect(JSON.stringify(report)).not.toContain("sk-proj-");
  });
});
