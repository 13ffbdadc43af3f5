import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createChat, tokenBudget, tokenCounter } from "june/chat";
import { estimateTokens } from "./token-budget.js";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";

const openai = (modelId: string) => scriptedModel(() => "ok", { provider: "openai.responses", modelId });

describe("tokenCounter", () => {
  it("counts with OpenAI's tokenizer for an OpenAI model, and estimates for any other", () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    // o200k_base: 10 tokens (checked against OpenAI's tokenizer).
    expect(tokenCounter(openai("gpt-4o-mini"))(text)).toBe(10);
    expect(tokenCounter(openai("gpt-4"))(text)).toBe(10);
    expect(tokenCounter(scriptedModel("ok", { provider: "gateway", modelId: "openai/gpt-5-mini" }))(text)).toBe(10);
    expect(tokenCounter(scriptedModel("ok", { provider: "anthropic.messages", modelId: "claude-sonnet-4" }))).toBe(estimateTokens);
    expect(tokenCounter(openai("text-davinci-003"))).toBe(estimateTokens);
  });

  it("tokenBudget counts with it: the turns it keeps are the ones that fit in real tokens", async () => {
    const model = openai("gpt-4o-mini");
    // Each turn: its input (10 tokens; 11 by the estimate) and the reply "ok" (1 token): 11 in all, 12 estimated.
    const input = "The quick brown fox jumps over the lazy dog.";
    const sent = async (count?: (text: string) => number) => {
      const chat = createChat({ model, context: tokenBudget({ maxTokens: 22, ...(count ? { count } : {}) }) });
      const session = await chat.createSession();
      for (let i = 0; i < 4; i++) await session.send(input).result;
      return model.doStreamCalls.at(-1)!.prompt.filter((m) => m.role === "user").length - 1;
    };
    expect(await sent(tokenCounter(model))).toBe(2);
    expect(await sent()).toBe(1);
  });

  it("measured on the docs: how close the four-characters estimate is to OpenAI's tokenizer", () => {
    const page = readFileSync(fileURLToPath(new URL("../../../../../docs/chat.md", import.meta.url)), "utf8");
    const real = tokenCounter(openai("gpt-4o-mini"))(page);
    const estimate = estimateTokens(page);
    // docs/chat.md measured 5,009 real tokens (o200k) against 4,975 estimated (-0.7%) when docs/cost.md's table
    // was written; the page changes as the docs grow, so this checks the order of that figure, not the count.
    expect(real).toBeGreaterThan(3000);
    expect(Math.abs(estimate - real) / real).toBeLessThan(0.1);
  });
});
