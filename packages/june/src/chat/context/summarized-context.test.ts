import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
import { memoryStore } from "../../stores/index.js";
import { scriptedModel } from "../../testing/scripted-model.js";
import { createChat } from "../create-chat.js";
import type { Responder } from "../types.js";
import { summarizedContext, summaryMessage } from "./summarized-context.js";

/** A responder that records the messages of every turn and answers with a reply of fixed size. */
function recordingResponder(): Responder & { seen: ModelMessage[][] } {
  const seen: ModelMessage[][] = [];
  return {
    seen,
    respond({ input, messages }) {
      seen.push(messages.slice());
      return { result: Promise.resolve({ text: `reply to ${input}`.padEnd(40, ".") }) };
    },
  };
}

const q = (n: number) => `question ${n}`.padEnd(40, ".");

describe("summarizedContext", () => {
  test("summarizes older turns once, reuses the summary, writes a new one after more turns", async () => {
    const summarizer = scriptedModel(["SUMMARY-A", "SUMMARY-B"]);
    const responder = recordingResponder();
    const store = memoryStore();
    // Each turn is about 20 tokens: two older turns pass 30, one does not.
    const chat = createChat({ responder, store, context: summarizedContext({ model: summarizer, keepRecent: 2, triggerTokens: 30 }) });
    const session = await chat.createSession();
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) ids.push((await session.send(q(n)).result, (await session.turns()).at(-1)!.id));
    expect(summarizer.callCount).toBe(0);
    expect(responder.seen[3]).toHaveLength(6);

    // Turn 5: turns 1 and 2 are older than the 2 kept and pass the trigger.
    await session.send(q(5)).result;
    expect(summarizer.callCount).toBe(1);
    const prompt = JSON.stringify(summarizer.doStreamCalls[0]!.prompt);
    expect(prompt).toContain("question 1");
    expect(prompt).toContain("question 2");
    expect(prompt).not.toContain("question 3");
    expect(responder.seen[4]!.map((m) => m.content)).toEqual([
      summaryMessage("SUMMARY-A").content,
      q(3),
      expect.stringContaining("reply to question 3"),
      q(4),
      expect.stringContaining("reply to question 4"),
    ]);
    let entries = await store.read(session.id);
    expect(entries.filter((e) => e.type === "summary")).toEqual([expect.objectContaining({ throughTurnId: ids[1], text: "SUMMARY-A" })]);
    const start5 = entries.findLast((e) => e.type === "turn-start");
    expect(start5).toMatchObject({ context: { builder: "summarizedContext", summaryId: ids[1], turnIds: [ids[2], ids[3]] } });

    // Turn 6: only turn 3 is older and unsummarized: the summary is reused, not written again.
    await session.send(q(6)).result;
    expect(summarizer.callCount).toBe(1);
    expect(responder.seen[5]![0]).toEqual(summaryMessage("SUMMARY-A"));
    expect(responder.seen[5]).toHaveLength(1 + 3 * 2);

    // Turn 7: turns 3 and 4 pass the trigger: a new summary of the old one and those turns.
    await session.send(q(7)).result;
    expect(summarizer.callCount).toBe(2);
    const second = JSON.stringify(summarizer.doStreamCalls[1]!.prompt);
    expect(second).toContain("SUMMARY-A");
    expect(second).toContain("question 4");
    expect(second).not.toContain("question 2");
    expect(responder.seen[6]![0]).toEqual(summaryMessage("SUMMARY-B"));
    entries = await store.read(session.id);
    expect(entries.filter((e) => e.type === "summary").map((e) => (e as { throughTurnId: string }).throughTurnId)).toEqual([ids[1], ids[3]]);

    // A reopened session reuses the journaled summary without calling the model.
    const reopened = await chat.openSession(session.id);
    const messages = await reopened.messages();
    expect(messages[0]).toEqual(summaryMessage("SUMMARY-B"));
    expect(summarizer.callCount).toBe(2);
  });

  test("a model chat's model sees the summary, then the recent turns, then the input", async () => {
    const summarizer = scriptedModel(["SUMMARY"]);
    const model = scriptedModel(["A".repeat(40), "B".repeat(40), "C"]);
    const chat = createChat({ model, context: summarizedContext({ model: summarizer, keepRecent: 1, triggerTokens: 5 }) });
    const session = await chat.createSession();
    for (const input of [q(1), q(2), q(3)]) await session.send(input).result;
    const text = (content: unknown) => (typeof content === "string" ? content : (content as { text: string }[])[0]!.text);
    expect(model.doStreamCalls[2]!.prompt.map((m) => [m.role, text(m.content)])).toEqual([
      ["user", summaryMessage("SUMMARY").content],
      ["user", q(2)],
      ["assistant", "B".repeat(40)],
      ["user", q(3)],
    ]);
  });

  test("bad options are named", () => {
    const model = scriptedModel("x");
    expect(() => summarizedContext({ model, keepRecent: -1, triggerTokens: 10 })).toThrow(/keepRecent/);
    expect(() => summarizedContext({ model, keepRecent: 1, triggerTokens: Number.NaN })).toThrow(/triggerTokens/);
  });
});
