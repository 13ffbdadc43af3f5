import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
import { memoryStore } from "../stores/index.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { recentTurns } from "./context/recent-turns.js";
import { summarizedContext } from "./context/summarized-context.js";
import { createChat } from "./create-chat.js";
import type { ContextBuilder, Responder } from "./types.js";

interface Call {
  input: string;
  turnId: string;
  messages: ModelMessage[];
}

function recordingResponder(reply = (input: string, n: number) => `${input.slice(0, 12)} #${n}`.padEnd(40, ".")): Responder & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    respond({ input, turnId, messages }) {
      calls.push({ input, turnId, messages: structuredClone(messages) });
      return {
        result: Promise.resolve({ text: reply(input, calls.length), metadata: { finishReason: "stop" } }),
        // Events a replay must read to the end.
        events: (async function* () {
          yield { type: "text-delta" as const, text: "x" };
        })(),
      };
    },
  };
}

async function sessionWith(context: ContextBuilder, inputs: string[]) {
  const store = memoryStore();
  const responder = recordingResponder();
  const session = await createChat({ responder, store, context }).createSession();
  const ids: string[] = [];
  for (const input of inputs) {
    const turn = session.send(input);
    await turn.result;
    ids.push(turn.id);
  }
  return { store, session, responder, ids };
}

describe("session.replay", () => {
  test("the responder receives exactly the messages of the original turn; nothing is journaled", async () => {
    const { store, session, responder, ids } = await sessionWith(recentTurns(2), ["one", "two", "three", "four"]);
    const before = await store.read(session.id);
    const other = recordingResponder(() => "other reply");
    for (const [i, id] of ids.entries()) {
      const result = await session.replay(id, { responder: other });
      expect(result).toEqual({ text: "other reply", metadata: { finishReason: "stop" } });
      expect(other.calls.at(-1)).toEqual({ input: responder.calls[i]!.input, turnId: id, messages: responder.calls[i]!.messages });
    }
    // The chat's own responder by default.
    const own = await session.replay(ids[2]!);
    expect(own.text).toMatch(/^three #5/);
    expect(responder.calls.at(-1)!.messages).toEqual(responder.calls[2]!.messages);
    expect(await store.read(session.id)).toEqual(before);
    await expect(session.replay("nope")).rejects.toThrow(/has no turn "nope"/);
  });

  test("a turn on an earlier branch, and a turn that used a summary", async () => {
    const summarizer = scriptedModel(["THE SUMMARY"]);
    const context = summarizedContext({ model: summarizer, keepRecent: 1, triggerTokens: 8 });
    const { session, responder, ids } = await sessionWith(context, ["one", "two", "three"]);
    expect(summarizer.callCount).toBe(1);
    expect(JSON.stringify(responder.calls[2]!.messages)).toContain("THE SUMMARY");
    const regenerated = session.regenerate(ids[1]);
    await regenerated.result;
    const other = recordingResponder(() => "again");
    for (const [i, id] of ids.entries()) {
      await session.replay(id, { responder: other });
      expect(other.calls.at(-1)!.messages).toEqual(responder.calls[i]!.messages);
    }
    await session.replay(regenerated.id, { responder: other });
    expect(other.calls.at(-1)!.messages).toEqual(responder.calls[3]!.messages);
    expect(summarizer.callCount).toBe(1);
  });
});
