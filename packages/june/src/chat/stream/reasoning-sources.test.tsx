import { Agent, Step } from "june";
import { agentResponder, createChat, toUIMessages } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../stores/memory-store.js";
import type { TurnStreamEvent } from "./turn-stream-event.js";
import { parseTurnStreamEvent, TurnStreamEventError } from "./index.js";
import { turnStream } from "./turn-stream.js";

const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz";
const thinking = { reasoning: ["Let me ", "check the docs. ", `The key ${KEY.slice(0, 9)}`, `${KEY.slice(9)} is not needed.`], text: ["The answer ", "is 42."], sources: [{ url: "https://example.com/answer", title: "The answer" }] };

async function events(turn: AsyncIterable<unknown> & object, options = {}): Promise<TurnStreamEvent[]> {
  const out: TurnStreamEvent[] = [];
  for await (const { event } of turnStream(turn as never, options)) out.push(parseTurnStreamEvent(JSON.parse(JSON.stringify(event))));
  return out;
}

/** The events' kinds in order, runs of the same kind as one. */
function shape(list: readonly TurnStreamEvent[]): string[] {
  return list.map((event) => event.type).filter((type, i, all) => type !== "run-update" && type !== all[i - 1]);
}

const reasoningOf = (list: readonly TurnStreamEvent[]) => list.flatMap((e) => (e.type === "reasoning-delta" ? [e.text] : [])).join("");

describe("reasoning and sources in the turn stream", () => {
  it("a model chat streams them as events of their own, in the model's order, redacted; turn.result gives both", async () => {
    const chat = createChat({ model: scriptedModel(thinking), store: memoryStore() });
    const turn = (await chat.createSession()).send("What is the answer?");
    const list = await events(turn);
    expect(shape(list)).toEqual(["turn-start", "reasoning-start", "reasoning-delta", "reasoning-end", "text-delta", "source", "turn-end"]);
    expect(reasoningOf(list)).toBe("Let me check the docs. The key [redacted] is not needed.");
    expect(list.find((e) => e.type === "source")).toEqual({ type: "source", source: { sourceType: "url", id: "source-0-0", url: "https://example.com/answer", title: "The answer" } });
    const result = await turn.result;
    expect(result.text).toBe("The answer is 42.");
    expect(result.reasoning).toContain("Let me check the docs.");
    expect(result.sources).toEqual([{ sourceType: "url", id: "source-0-0", url: "https://example.com/answer", title: "The answer" }]);
  });

  it("a model call's trace row shows an excerpt of its reasoning", async () => {
    const chat = createChat({ model: scriptedModel(thinking), store: memoryStore() });
    const list = await events((await chat.createSession()).send("What?"));
    const rows = list.findLast((e) => e.type === "run-update");
    expect(rows?.type === "run-update" && rows.rows[0]?.kind === "model" ? rows.rows[0].reasoning : undefined).toMatch(/^Let me check the docs\. The key \[redacted/);
  });

  it("an agent's streamed step streams them too, each after the text written before it", async () => {
    const model = scriptedModel([{ ...thinking, text: "First look.", toolCalls: [] }]);
    const chat = createChat({
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <Step id="answer" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.answer),
        stream: { step: "answer" },
      }),
      store: memoryStore(),
    });
    const turn = (await chat.createSession()).send("What?");
    const list = await events(turn);
    expect(shape(list)).toEqual(["turn-start", "reasoning-start", "reasoning-delta", "reasoning-end", "text-delta", "source", "turn-end"]);
    expect(reasoningOf(list)).toContain("[redacted]");
    expect((await turn.result).sources?.map((s) => s.sourceType === "url" && s.url)).toEqual(["https://example.com/answer"]);
  });

  it("a held output guardrail holds the reasoning and sources with the text, and a blocked reply sends none of them", async () => {
    const check = ({ text }: { text: string }) => (text.includes("42") ? "no answers" : undefined);
    const chat = createChat({ model: scriptedModel([thinking, { ...thinking, text: "Fine." }]), store: memoryStore(), guardrails: { output: [{ name: "no-42", check }] } });
    const session = await chat.createSession();
    const blocked = await events(session.send("What?"));
    expect(shape(blocked)).toEqual(["turn-start", "turn-end"]);
    const passed = await events(session.send("Again?"));
    expect(shape(passed)).toEqual(["turn-start", "reasoning-start", "reasoning-delta", "reasoning-end", "text-delta", "source", "turn-end"]);
  });

  it("the schema checks them", () => {
    expect(parseTurnStreamEvent({ type: "reasoning-delta", id: "r", text: "hm" })).toEqual({ type: "reasoning-delta", id: "r", text: "hm" });
    expect(() => parseTurnStreamEvent({ type: "reasoning-delta", id: "r" })).toThrow(TurnStreamEventError);
    expect(() => parseTurnStreamEvent({ type: "source", source: { sourceType: "url", id: "s" } })).toThrow(/source\.url/);
    expect(() => parseTurnStreamEvent({ type: "source", source: { sourceType: "page", id: "s" } })).toThrow(/source\.sourceType/);
    expect(parseTurnStreamEvent({ type: "source", source: { sourceType: "document", id: "d", mediaType: "application/pdf", title: "Spec" } }).type).toBe("source");
  });
});

describe("reasoning and sources in the journal", () => {
  it("a reply's sources are journaled with it; its reasoning only with journal: { reasoning: true }, and never sent back to the model", async () => {
    const store = memoryStore();
    const model = scriptedModel([thinking, "Next."]);
    const chat = createChat({ model, store });
    const session = await chat.createSession();
    await session.send("What?").result;
    const [turn] = await session.turns();
    expect(turn!.sources).toEqual([{ sourceType: "url", id: "source-0-0", url: "https://example.com/answer", title: "The answer" }]);
    expect(turn!.reasoning).toBeUndefined();
    const reopened = await createChat({ model, store }).openSession(session.id);
    const messages = toUIMessages(await reopened.turns());
    expect(messages[1]!.parts.map((part) => part.type)).toEqual(["text", "source-url"]);

    await session.send("And?").result;
    // The next turn's prompt holds the reply's text, not its reasoning.
    expect(JSON.stringify(model.doStreamCalls[1]!.prompt)).not.toContain("check the docs");

    const keeping = createChat({ model: scriptedModel(thinking), store, journal: { reasoning: true } });
    const kept = await keeping.createSession();
    await kept.send("What?").result;
    expect((await kept.turns())[0]!.reasoning).toBe("Let me check the docs. The key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz is not needed.");
    const parts = toUIMessages(await kept.turns())[1]!.parts;
    expect(parts.map((part) => part.type)).toEqual(["reasoning", "text", "source-url"]);
    expect(parts[0]).toMatchObject({ type: "reasoning", text: "Let me check the docs. The key [redacted] is not needed." });
  });
});
