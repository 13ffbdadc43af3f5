import type { ModelMessage } from "ai";
import { createChat, fullContext, memoryStore, recentTurns, tokenBudget, type ContextBuilder, type Responder, type TurnEvent } from "june/chat";
import { dataset, sessionCases, type EvalCase } from "june/learning";
import { describe, expect, test } from "vitest";

/**
 * A responder that records the messages it got for every turn, reports usage and a model, fails on
 * "fail", and on "steer me" writes half its reply, waits for a steer, then writes the rest.
 */
function recordingResponder() {
  const seen = new Map<string, ModelMessage[]>();
  const responder: Responder = {
    kind: "custom",
    id: "recorder",
    version: "v1",
    respond({ input, messages, turnId }) {
      seen.set(turnId, structuredClone(messages));
      if (input === "fail") return { result: Promise.reject(new Error("no")) };
      const metadata = { model: { provider: "test", modelId: "m1" }, usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } };
      if (input !== "steer me") return { result: Promise.resolve({ text: `re: ${input}`, metadata }) };
      let resume!: () => void;
      const steered = new Promise<void>((resolve) => (resume = resolve));
      async function* events(): AsyncGenerator<TurnEvent> {
        yield { type: "text-delta", text: "first " };
        await steered;
        yield { type: "text-delta", text: "second" };
      }
      return { events: events(), result: steered.then(() => ({ text: "first second", metadata })), steer: () => resume() };
    },
  };
  return { responder, seen };
}

async function collect(cases: AsyncIterable<EvalCase>): Promise<EvalCase[]> {
  const out: EvalCase[] = [];
  for await (const evalCase of cases) out.push(evalCase);
  return out;
}

/** A session with a failed turn, a steered turn and plain ones, answered with `context`. */
async function buildSession(context?: ContextBuilder) {
  const { responder, seen } = recordingResponder();
  const chat = createChat({ responder, store: memoryStore(), ...(context && { context }) });
  const session = await chat.createSession();
  await session.send("one").result;
  await session.send("fail").result.catch(() => {});
  const steered = session.send("steer me");
  for await (const event of steered) {
    if (event.type === "text-delta") {
      await steered.steer("and more");
      break;
    }
  }
  await steered.result;
  await session.send("three").result;
  await session.send("four").result;
  return { chat, session, seen };
}

describe("dataset", () => {
  const builders: [string, ContextBuilder | undefined][] = [
    ["fullContext (the default)", undefined],
    ["fullContext", fullContext()],
    ["recentTurns(2)", recentTurns(2)],
    ["tokenBudget", tokenBudget({ maxTokens: 12 })],
  ];
  test.each(builders)("each case's messages are exactly what the responder saw, with %s", async (_name, context) => {
    const { chat, session, seen } = await buildSession(context);
    const cases = await collect(dataset(chat));
    const turns = await session.turns();
    expect(cases.map((evalCase) => evalCase.input)).toEqual(["one", "steer me", "three", "four"]);
    for (const evalCase of cases) {
      expect(evalCase.messages).toEqual(seen.get(evalCase.metadata.turnId));
    }
    // The steered turn comes back with its steer in place for the turns after it (when their context sent it).
    const afterSteer = cases.find((evalCase) => evalCase.input === "three")!;
    if (context === undefined || context.name !== "tokenBudgetBuilder") {
      expect(afterSteer.messages).toContainEqual({ role: "user", content: "and more" });
    }
    expect(turns.filter((turn) => turn.status === "failed")).toHaveLength(1);
    // The builders chose differently, and the cases follow each choice.
    const last = cases[3]!.messages.map((message) => message.content);
    if (context?.name === "recentTurnsBuilder") expect(last).toEqual(["steer me", "first ", "and more", "second", "three", "re: three"]);
    else if (context?.name === "tokenBudgetBuilder") expect(last).toEqual(["three", "re: three"]);
    else expect(last).toHaveLength(8);
  });

  test("a case carries the reply, its provenance and an id of session and turn", async () => {
    const { chat, session } = await buildSession();
    const turns = await session.turns();
    const [first, steered] = await collect(dataset(chat));
    expect(first).toEqual({
      id: `${session.id}/${turns[0]!.id}`,
      input: "one",
      messages: [],
      reply: "re: one",
      metadata: {
        sessionId: session.id,
        turnId: turns[0]!.id,
        responder: { kind: "custom", id: "recorder", version: "v1" },
        model: { provider: "test", modelId: "m1" },
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
        at: turns[0]!.endedAt,
      },
    });
    expect(steered!.reply).toBe("first second");
    expect(steered!.messages).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "re: one" },
    ]);
  });

  test("filters by feedback: up is above 0.5, down below, all takes every completed turn", async () => {
    const { chat, session } = await buildSession();
    const [one, steered, three, four] = (await session.turns()).filter((turn) => turn.status === "completed");
    await session.feedback(one!.id, { score: -1, comment: "wrong" });
    await session.feedback(steered!.id, { score: 1 });
    await session.feedback(three!.id, { score: 0.5 });
    await session.feedback(four!.id, { score: 0.2 });
    await session.feedback(four!.id, { score: 0.9, tags: ["fixed"] });

    const inputs = async (filter: Parameters<typeof dataset>[1]) => (await collect(dataset(chat, filter))).map((c) => c.input);
    expect(await inputs({ filter: "up" })).toEqual(["steer me", "four"]);
    expect(await inputs({ filter: "down" })).toEqual(["one"]);
    expect(await inputs({ filter: "all" })).toEqual(["one", "steer me", "three", "four"]);
    expect(await inputs({})).toEqual(["one", "steer me", "three", "four"]);
    expect(await inputs({ filter: (evalCase) => evalCase.feedback?.tags?.includes("fixed") === true })).toEqual(["four"]);
    const [down] = await collect(dataset(chat, { filter: "down" }));
    expect(down!.feedback).toEqual({ score: -1, comment: "wrong" });
  });

  test("reads every session, newest first, or only those named", async () => {
    const { responder } = recordingResponder();
    let n = 0;
    const chat = createChat({ responder, idGenerator: (kind) => `${kind}-${++n}` });
    const a = await chat.createSession();
    await a.send("in a").result;
    const b = await chat.createSession();
    await b.send("in b").result;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.send("in b again").result;
    expect((await collect(dataset(chat))).map((c) => c.id)).toEqual([`${b.id}/turn-4`, `${b.id}/turn-5`, `${a.id}/turn-2`]);
    expect((await collect(dataset(chat, { sessions: [a.id] }))).map((c) => c.input)).toEqual(["in a"]);
    await expect(collect(dataset(chat, { sessions: ["missing"] }))).rejects.toMatchObject({ name: "SessionNotFoundError" });
  });

  test("refuses bad options at once", () => {
    const chat = createChat({ responder: recordingResponder().responder });
    expect(() => dataset(chat, { filter: "good" as never })).toThrow(/filter must be "up", "down", "all" or a function/);
    expect(() => dataset(chat, { sessions: "a" as never })).toThrow(/sessions must be an array/);
    expect(() => dataset({} as never)).toThrow(/chat must be a Chat/);
  });

  test("sessionCases rebuilds a compact completedThrough context from the records alone", () => {
    const at = "2024-01-01T00:00:00.000Z";
    const cases = sessionCases("s", [
      { id: "t1", input: "a", steers: [], status: "completed", text: "A", startedAt: at, context: { builder: "fullContext", turnIds: [] } },
      { id: "t2", input: "b", steers: [], status: "canceled", startedAt: at, context: { builder: "fullContext", turnIds: [], completedThrough: "t1" } },
      { id: "t3", input: "c", steers: [], status: "completed", text: "C", startedAt: at, context: { builder: "fullContext", turnIds: [], completedThrough: "t1" } },
      { id: "t4", input: "d", steers: [], status: "completed", text: "D", startedAt: at, context: { builder: "mine", turnIds: ["t3"] } },
    ]);
    expect(cases.map((c) => c.messages.map((m) => m.content))).toEqual([[], ["a", "A"], ["c", "C"]]);
    expect(cases[0]!.metadata).toEqual({ sessionId: "s", turnId: "t1", responder: { kind: "custom" }, at });
  });
});
