/**
 * `tokenBudget({ model })`: for a model with no known tokenizer, the four-characters estimate calibrated by the
 * input tokens the provider reported for the session's earlier turns; the default budget from the catalog's
 * context window.
 */
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { readFileSync } from "node:fs";
import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import type { TurnRecord } from "../types.js";
import { estimateTokens } from "../../cost/estimate-tokens.js";
import { tokenBudget } from "./token-budget.js";
import { calibrationRatio } from "./token-calibration.js";

function promptTexts(prompt: LanguageModelV3Prompt): string[] {
  return prompt.map((message) =>
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join(""),
  );
}

/** A model of provider `acme` whose provider counts `tokens(prompt)` input tokens. */
function reportingModel(tokens: (texts: string[]) => number, reply: (call: number) => string, provider = "acme", modelId = "m-1") {
  return scriptedModel(
    ({ index, options }) => ({ text: reply(index), usage: { inputTokens: tokens(promptTexts(options.prompt)), outputTokens: 5 } }),
    { provider, modelId },
  );
}

async function session(model: ReturnType<typeof reportingModel>, inputs: string[], maxTokens = 1e9) {
  const chat = createChat({ model, context: tokenBudget({ model, maxTokens }) });
  const s = await chat.createSession();
  for (const input of inputs) await s.send(input).result;
  return s;
}

const build = (builder: ReturnType<typeof tokenBudget>, history: TurnRecord[], input = "next") =>
  Promise.resolve(builder(history, { sessionId: "s", input, entries: [] })) as Promise<{ turnIds: string[] }>;

describe("tokenBudget({ model }) calibrates from reported usage", () => {
  it("the ratio is the reported input tokens over the estimate of what each turn sent", async () => {
    // The provider counts twice the estimate: a turn's 40-character reply counts 20 tokens, not 10.
    const twice = (texts: string[]) => 2 * texts.reduce((sum, text) => sum + estimateTokens(text), 0);
    const model = reportingModel(twice, () => "r".repeat(40));
    const s = await session(model, ["a".repeat(40), "b".repeat(40), "c".repeat(40)]);
    const history = await s.turns();
    expect(calibrationRatio(history)).toBe(2);
    // Each turn is 20 estimated tokens, 40 calibrated: a budget of 85 holds two turns, not four.
    const budget = tokenBudget({ model, maxTokens: 85 });
    expect((await build(budget, history)).turnIds).toEqual(history.slice(1).map((t) => t.id));
    expect((await build(tokenBudget({ maxTokens: 85 }), history)).turnIds).toEqual(history.map((t) => t.id));
  });

  it("no usage yet: the plain estimate; a count given wins over calibration", async () => {
    const records: TurnRecord[] = [{ id: "a", input: "x".repeat(40), steers: [], status: "completed", text: "y".repeat(40), startedAt: "" }];
    expect(calibrationRatio(records)).toBeUndefined();
    const model = reportingModel(() => 1, () => "ok");
    expect((await build(tokenBudget({ model, maxTokens: 20 }), records)).turnIds).toEqual(["a"]);
    expect((await build(tokenBudget({ model, maxTokens: 20, count: () => 100 }), records)).turnIds).toEqual([]);
  });

  it("is closer to the provider's count than the estimate, on the docs (o200k as the provider's tokenizer)", async () => {
    const paragraphs = readFileSync(new URL("../../../../../docs/chat.md", import.meta.url), "utf8").split(/\n\n+/).filter((p) => p.length > 80);
    const provider = (texts: string[]) => texts.reduce((sum, text) => sum + countTokens(text) + 4, 0);
    const model = reportingModel(provider, (call) => paragraphs[(call * 2 + 1) % paragraphs.length]!);
    const s = await session(model, Array.from({ length: 6 }, (_, i) => paragraphs[(i * 2) % paragraphs.length]!));
    const history = await s.turns();
    const ratio = calibrationRatio(history)!;
    const texts = history.flatMap((t) => [t.input, t.text ?? ""]);
    const truth = provider(texts);
    const estimate = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
    const calibrated = texts.reduce((sum, text) => sum + Math.ceil(estimateTokens(text) * ratio), 0);
    expect(Math.abs(calibrated - truth)).toBeLessThan(Math.abs(estimate - truth));
  });
});

describe("tokenBudget({ model }) without maxTokens: the catalog's context window", () => {
  const big = (id: string, chars: number): TurnRecord => ({ id, input: "x", steers: [], status: "completed", text: "y".repeat(chars), startedAt: "" });

  it("three quarters of the window, less the new input (claude-3-5-haiku: 200,000 tokens)", async () => {
    const model = reportingModel(() => 1, () => "ok", "anthropic.messages", "claude-3-5-haiku-20241022");
    // 149,000 estimated tokens fit in 150,000; with 100,000 more, the older turn does not.
    const history = [big("old", 400_000), big("new", 596_000)];
    expect((await build(tokenBudget({ model }), history)).turnIds).toEqual(["new"]);
    expect((await build(tokenBudget({ model }), history.slice(1))).turnIds).toEqual(["new"]);
    // The new input counts against it: 4,000 tokens of input leave 146,000.
    expect((await build(tokenBudget({ model }), history.slice(1), "z".repeat(16_000))).turnIds).toEqual([]);
  });

  it("a model the catalog does not know: no limit", async () => {
    const model = reportingModel(() => 1, () => "ok", "acme", "mystery-1");
    const history = [big("old", 4_000_000), big("new", 4_000_000)];
    expect((await build(tokenBudget({ model }), history)).turnIds).toEqual(["old", "new"]);
  });

  it("refuses a bad model or maxTokens by name", () => {
    expect(() => tokenBudget({ model: 3 as never })).toThrow(/model/);
    expect(() => tokenBudget({ maxTokens: -1, model: "openai/gpt-4o" })).toThrow(/maxTokens/);
    expect(() => tokenBudget({} as never)).toThrow(/maxTokens/);
  });
});
