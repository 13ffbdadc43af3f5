import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterAll, describe, expect, it } from "vitest";
import { Agent, RunError, Step, start } from "june";
import { createChat, type ChatStore } from "june/chat";
import { scriptedModel, type Script } from "june/testing";
import { fileStore } from "../stores/file-store.js";
import { memoryStore } from "../stores/memory-store.js";
import { sqliteStore } from "../stores/sqlite/sqlite-store.js";
import { BudgetExceededError } from "./errors.js";
import { estimateTokens } from "./estimate-tokens.js";

const dir = mkdtempSync(join(tmpdir(), "june-unreported-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let made = 0;
const stores: [string, () => ChatStore][] = [
  ["memoryStore", () => memoryStore()],
  ["fileStore", () => fileStore(join(dir, String(++made)))],
  ["sqliteStore", () => sqliteStore(join(dir, `${String(++made)}.db`))],
];

/** A scripted model whose provider reports no token counts (`missing`) or NaN ones. */
function unreporting(script: Script, how: "missing" | "nan", info?: { provider: string; modelId: string }) {
  const model = scriptedModel(script, info);
  const doStream = model.doStream.bind(model);
  const n = how === "nan" ? Number.NaN : undefined;
  model.doStream = async (options) => {
    const result = await doStream(options);
    const stream = result.stream.pipeThrough(
      new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(part, controller) {
          if (part.type !== "finish") return controller.enqueue(part);
          controller.enqueue({ ...part, usage: { inputTokens: { total: n, noCache: n, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: n, text: n, reasoning: undefined } } });
        },
      }),
    );
    return { ...result, stream };
  };
  return model;
}

const LONG = "Tell me everything about the deployment, every detail of it. ".repeat(8); // ~500 characters

describe("usage a provider does not report counts against a token budget by June's own count; its cost stays unknown", () => {
  for (const [name, make] of stores) {
    for (const how of ["missing", "nan"] as const) {
      it(`${name}, ${how} usage: the turn records June's count, the session's USD is unknown, the next turn is refused`, async () => {
        const model = unreporting(() => "All of it.", how);
        const chat = createChat({ model, store: make(), budget: { session: { tokens: 100 } } });
        const session = await chat.createSession();
        const result = await session.send(LONG).result;
        const usage = result.metadata.usage!;
        // June's count of what was sent (the input and a message's framing) and of what came back.
        expect(usage.inputTokens).toBe(estimateTokens(LONG) + 4);
        expect(usage.outputTokens).toBe(estimateTokens("All of it."));
        expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
        expect(Number.isNaN(usage.totalTokens)).toBe(false);
        expect(result.metadata).not.toHaveProperty("cost");
        expect(await session.cost()).toEqual({ tokens: usage.totalTokens });
        const error = await session.send("more").result.catch((e: unknown) => e);
        expect(BudgetExceededError.isInstance(error)).toBe(true);
        expect(model.callCount).toBe(1);
      });
    }

    it(`${name}: a turn canceled mid-stream records what was sent and received, and counts against the budget`, async () => {
      const model = scriptedModel([{ text: ["w0 ", "w1 ", "w2 ", "w3 "], delay: 30 }, "never"]);
      const chat = createChat({ model, store: make(), budget: { session: { tokens: 100 } } });
      const session = await chat.createSession();
      const turn = session.send(LONG);
      for await (const event of turn) if (event.type === "text-delta") break;
      turn.cancel();
      await turn.result.catch(() => {});
      const [record] = await session.turns();
      expect(record!.status).toBe("canceled");
      expect(record!.metadata?.usage?.inputTokens).toBe(estimateTokens(LONG) + 4);
      expect(record!.metadata).not.toHaveProperty("cost");
      const cost = await session.cost();
      expect(cost.tokens).toBeGreaterThan(100);
      expect(cost).not.toHaveProperty("usd");
      const error = await session.send("more").result.catch((e: unknown) => e);
      expect(BudgetExceededError.isInstance(error)).toBe(true);
      expect(model.callCount).toBe(1);
    });
  }

  it("a priced OpenAI model that reports NaN: tokens by its own tokenizer, the cost unknown (never $0)", async () => {
    const model = unreporting(() => "All of it.", "nan", { provider: "openai.responses", modelId: "gpt-4o-mini" });
    const result = await (await createChat({ model }).createSession()).send(LONG).result;
    expect(result.metadata.usage!.inputTokens).toBeGreaterThan(50);
    expect(result.metadata.usage!.inputTokens).not.toBe(estimateTokens(LONG) + 4);
    expect(result.metadata).not.toHaveProperty("cost");
  });

  it("an agent run whose provider reports nothing is stopped by its token budget before the next call", async () => {
    const model = unreporting(() => "Done.", "missing");
    const run = start(
      <Agent model={model}>
        <Step id="one" prompt={LONG} />
        <Step id="two" prompt="two" />
      </Agent>,
      { budget: { turn: { tokens: 100 } } },
    );
    const error = await run.result.catch((e: unknown) => e);
    expect(RunError.isInstance(error)).toBe(true);
    expect(BudgetExceededError.isInstance((error as RunError).cause)).toBe(true);
    expect(model.callCount).toBe(1);
    expect((error as RunError).result.usage.totalTokens).toBeGreaterThan(100);
    expect((error as RunError).result.cost?.usd).toBeUndefined();
  });
});
