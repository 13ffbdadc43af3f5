import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createChat } from "../chat/create-chat.js";
import type { Responder } from "../chat/types.js";
import { parseJSONL } from "../learning/jsonl.js";
import type { EvalReport } from "../learning/types.js";
import { fileStore } from "../stores/file-store.js";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { missedMinimum, pickScorers, renderEvalStats } from "./commands/eval-action.js";
import { scorerSpecs } from "./commands/scorer-flag.js";
import { runCli } from "./main.js";

const dir = mkdtempSync(join(tmpdir(), "june-learning-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Plain `.mjs` modules: the same echo responder the sessions below were answered with, and a changed one.
const ECHO = `({ input, messages }) => ({ result: Promise.resolve({ text: "re: " + input + " (after " + messages.length + ")" }) })`;
writeFileSync(join(dir, "echo.mjs"), `export default { id: "echo", version: "v1", respond: ${ECHO} };\n`);
writeFileSync(
  join(dir, "changed.mjs"),
  `export default { id: "echo", version: "v2", respond: ({ input }) => ({ result: Promise.resolve({ text: "RE: " + input }) }) };
export const scorers = { shouts: (_c, reply) => (reply.startsWith("RE:") ? 1 : 0) };\n`,
);
writeFileSync(join(dir, "bad-scorers.mjs"), `export default { respond() {} };\nexport const scorers = { x: 5 };\n`);

const echo: Responder = {
  id: "echo",
  version: "v1",
  respond: ({ input, messages }) => ({ result: Promise.resolve({ text: `re: ${input} (after ${messages.length})` }) }),
};

/** Two sessions in `store`: one with three turns (the first thumbs-up, the second down), one with one turn. */
async function seedStore(store: string) {
  const chat = createChat({ responder: echo, store: fileStore(join(dir, store)) });
  const first = await chat.createSession({ id: "first" });
  const a = first.send("alpha");
  await a.result;
  const b = first.send("beta key=sk-proj-0123456789abcdefghijklmn");
  await b.result;
  await first.send("gamma").result;
  await first.feedback(a.id, { score: 1 });
  await first.feedback(b.id, { score: -1, comment: "no" });
  const second = await chat.createSession({ id: "second" });
  await second.send("delta").result;
}

async function june(argv: string[], env: Record<string, string> = {}) {
  const io = createFakeIO({ cwd: dir, env });
  const code = await runCli({ argv, io });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe("june dataset", () => {
  it("prints every completed turn as a redacted JSON line; --filter, --session and --out narrow and redirect it", async () => {
    await seedStore("store-a");
    const all = await june(["dataset", "--store", "store-a"]);
    expect(all.code).toBe(0);
    const cases = parseJSONL(all.stdout);
    expect(cases.map((c) => c.input).sort()).toEqual(["alpha", "beta key=[redacted]", "delta", "gamma"]);
    expect(all.stdout).not.toContain("sk-proj-");
    expect(all.stderr).toBe("4 cases\n");
    const gamma = cases.find((c) => c.input === "gamma")!;
    expect(gamma.messages.map((m) => m.content)).toEqual(["alpha", "re: alpha (after 0)", "beta key=[redacted]", "re: beta key=[redacted] (after 2)"]);
    expect(gamma.metadata.responder).toEqual({ kind: "custom", id: "echo", version: "v1" });

    const up = await june(["dataset", "--store", "store-a", "--filter", "up"]);
    expect(parseJSONL(up.stdout).map((c) => c.input)).toEqual(["alpha"]);
    expect(up.stderr).toBe("1 case (up)\n");
    const down = await june(["dataset", "--store", "store-a", "--filter=down"]);
    expect(parseJSONL(down.stdout)[0]!.feedback).toEqual({ score: -1, comment: "no" });
    const second = await june(["dataset", "--store", "store-a", "--session", "second"]);
    expect(parseJSONL(second.stdout).map((c) => c.input)).toEqual(["delta"]);

    const out = await june(["dataset", "--store", "store-a", "--out", "cases.jsonl"]);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe("4 cases written to cases.jsonl\n");
    expect(readFileSync(join(dir, "cases.jsonl"), "utf8")).toBe(all.stdout);
  });

  it("reads the sessions of a module's chat (a Responder: in --store)", async () => {
    await seedStore("store-b");
    const result = await june(["dataset", "echo.mjs", "--store", "store-b", "--filter", "up"]);
    expect(result.code).toBe(0);
    expect(parseJSONL(result.stdout).map((c) => c.input)).toEqual(["alpha"]);
  });

  it("answers bad usage with exit code 2", async () => {
    expect(await june(["dataset", "--filter", "good"])).toMatchObject({ code: 2, stderr: 'june: --filter must be up, down or all, got "good"\n' });
    expect(await june(["dataset", "--session", "nope", "--store", "empty"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^june: --session: .*nope/) });
    expect(await june(["dataset", "notes.txt"])).toMatchObject({ code: 2 });
    expect(await june(["dataset", "--store", "empty"])).toMatchObject({ code: 0, stdout: "", stderr: "0 cases\n" });
  });
});

describe("june eval", () => {
  it("prints the stats as a table, the whole report with --json and --out, and exits 1 when --min is missed", async () => {
    await seedStore("store-c");
    await june(["dataset", "--store", "store-c", "--out", "eval-cases.jsonl"]);

    const same = await june(["eval", "echo.mjs", "eval-cases.jsonl", "--min", "1"]);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe("scorer      mean   min   max        pass\nexactMatch  1.00  1.00  1.00  4/4 (≥0.5)\n");
    expect(same.stderr).toMatch(/^4 cases · \d+\.\ds\n$/);

    const changed = await june(["eval", "changed.mjs", "eval-cases.jsonl", "--scorer", "exactMatch", "--scorer", "includes:RE:,shouts", "--min", "0.5", "--out", "report.json"]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("includes:RE:");
    expect(changed.stderr).toContain("june: exactMatch mean 0.00 is below --min 0.5");
    expect(changed.stderr).not.toContain("includes:RE: mean");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as EvalReport;
    expect(Object.keys(report.stats)).toEqual(["exactMatch", "includes:RE:", "shouts"]);
    expect(report.responder).toEqual({ kind: "custom", id: "echo", version: "v2" });
    expect(report.stats.shouts!.mean).toBe(1);
    expect(report.cases.find((c) => c.input.startsWith("beta"))!.reply).toBe("RE: beta key=[redacted]");

    // With no --scorer, the module's own scorers; --json prints the report instead of the table.
    const json = await june(["eval", "changed.mjs", "eval-cases.jsonl", "--json", "--concurrency", "2"]);
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.stdout) as EvalReport;
    expect(Object.keys(printed.stats)).toEqual(["shouts"]);
    expect(printed.cases).toHaveLength(4);
  });

  it("lists failed cases on stderr", async () => {
    writeFileSync(join(dir, "flaky.mjs"), `export default { respond: ({ input }) => ({ result: input === "b" ? Promise.reject(new Error("down")) : Promise.resolve({ text: input }) }) };\n`);
    writeFileSync(join(dir, "ab.jsonl"), `{"id":"a","input":"a","reply":"a"}\n{"id":"b","input":"b","reply":"b"}\n`);
    const result = await june(["eval", "flaky.mjs", "ab.jsonl"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("0.50");
    expect(result.stderr).toMatch(/^b: Error: down\n2 cases · 1 failed · /);
  });

  it("answers bad usage, a bad cases file or a bad scorer with exit code 2", async () => {
    writeFileSync(join(dir, "broken.jsonl"), `{"id":"a","input":"x","reply":"y"}\nnot json\n`);
    writeFileSync(join(dir, "empty.jsonl"), "\n");
    writeFileSync(join(dir, "one.jsonl"), `{"id":"a","input":"x","reply":"y"}\n`);
    const cases: [string[], RegExp][] = [
      [["eval", "echo.mjs"], /june eval needs <cases>: june eval <file> <cases\.jsonl>/],
      [["eval", "echo.mjs", "missing.jsonl"], /missing\.jsonl: no such file/],
      [["eval", "echo.mjs", "broken.jsonl"], /broken\.jsonl: line 2: not JSON/],
      [["eval", "echo.mjs", "empty.jsonl"], /has no cases/],
      [["eval", "echo.mjs", "one.jsonl", "--scorer", "bleu"], /Unknown scorer "bleu"/],
      [["eval", "echo.mjs", "one.jsonl", "--scorer", "regex"], /regex needs a pattern/],
      [["eval", "echo.mjs", "one.jsonl", "--scorer", "llmJudge"], /export it from the module/],
      [["eval", "echo.mjs", "one.jsonl", "--concurrency", "0"], /--concurrency must be a whole number/],
      [["eval", "echo.mjs", "one.jsonl", "--min", "2"], /--min must be a number from 0 to 1/],
      [["eval", "bad-scorers.mjs", "one.jsonl"], /scorers\.x is not a function/],
      [["eval", "one.jsonl", "echo.mjs"], /is not a module/],
    ];
    for (const [argv, message] of cases) {
      const result = await june(argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).toMatch(message);
    }
  });
});

describe("eval helpers", () => {
  it("scorerSpecs reads every --scorer, split on commas except in a regex", () => {
    expect(scorerSpecs(["a.ts", "--scorer", "exactMatch,includes", "--json", "--scorer=regex:^a,b$", "--", "--scorer", "x"])).toEqual([
      "exactMatch",
      "includes",
      "regex:^a,b$",
    ]);
  });

  it("pickScorers: the module's own first, then built-ins; exactMatch by default", () => {
    const own = () => 1;
    expect(Object.keys(pickScorers([], {}))).toEqual(["exactMatch"]);
    expect(pickScorers([], { own })).toEqual({ own });
    expect(pickScorers(["exactMatch"], { exactMatch: own }).exactMatch).toBe(own);
    expect(Object.keys(pickScorers(["jsonMatch", "regex:/x/i", "includes"], {}))).toEqual(["jsonMatch", "regex:/x/i", "includes"]);
  });

  it("renderEvalStats and missedMinimum", () => {
    const report = {
      stats: {
        exact: { mean: 0.5, min: 0, max: 1, passed: 1, count: 2, threshold: 0.5 },
        judge: { mean: 0.875, min: 0.75, max: 1, passed: 2, count: 2, threshold: 0.8 },
      },
    } as unknown as EvalReport;
    expect(renderEvalStats(report)).toBe(
      ["scorer  mean   min   max        pass", "exact   0.50  0.00  1.00  1/2 (≥0.5)", "judge   0.88  0.75  1.00  2/2 (≥0.8)", ""].join("\n"),
    );
    expect(missedMinimum(report, 0.6)).toEqual(["exact mean 0.50 is below --min 0.6"]);
    expect(missedMinimum(report, 0.5)).toEqual([]);
  });
});
