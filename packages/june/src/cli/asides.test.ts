import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { createFakeIO } from "./__fixtures__/fake-io.js";
import { createApprover } from "./approvals.js";
import { createLineReader } from "./line-reader.js";
import { Screen } from "./screen.js";
import { showTurn } from "./turn-runner.js";

const reply = {
  reasoning: ["The guide ", "has it."],
  text: ["The answer ", "is 42."],
  sources: [{ url: "https://example.com/guide", title: "The guide" }, { url: "https://example.com/faq" }],
};

async function shown(options: { reasoning?: boolean; json?: boolean } = {}) {
  const io = createFakeIO({ stderrTTY: false });
  const screen = new Screen(io);
  const approver = createApprover({ mode: "deny", io, screen, reader: () => createLineReader(io) });
  const turn = (await createChat({ model: scriptedModel(reply) }).createSession()).send("What?");
  const outcome = await showTurn({ io, screen, turn, input: "What?", approver, json: options.json === true, ...(options.reasoning && { reasoning: true }) });
  expect(outcome.status).toBe("completed");
  return io;
}

describe("june ask / june chat: reasoning and sources", () => {
  it("prints the sources as a numbered list after the reply; the reasoning only with --reasoning, on stderr", async () => {
    const plain = await shown();
    expect(plain.stdoutText()).toBe("The answer is 42.\nSources:\n1. The guide https://example.com/guide\n2. https://example.com/faq\n");
    expect(plain.stderrText()).not.toContain("The guide has it.");
    const shownReasoning = await shown({ reasoning: true });
    expect(shownReasoning.stderrText()).toContain("The guide has it.");
    expect(shownReasoning.stdoutText()).not.toContain("The guide has it.");
  });

  it("--json prints them as JSON lines", async () => {
    const lines = (await shown({ json: true })).stdoutText().trim().split("\n").map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(expect.arrayContaining(["reasoning-start", "reasoning-delta", "reasoning-end", "source"]));
  });
});

describe("june sessions show: sources", () => {
  it("lists a turn's journaled sources under its reply", async () => {
    const { renderTranscript } = await import("./commands/sessions-action.js");
    const session = await createChat({ model: scriptedModel(reply) }).createSession();
    await session.send("What?").result;
    expect(renderTranscript(await session.turns())).toBe("› What?\nThe answer is 42.\nSources:\n1. The guide https://example.com/guide\n2. https://example.com/faq\n");
  });
});
