import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, test } from "vitest";
import { fileStore, memoryStore } from "../stores/index.js";
import type { ChatStore } from "../stores/types.js";
import { recentTurns } from "./context/recent-turns.js";
import { createChat } from "./create-chat.js";
import type { ContextBuilder, Responder } from "./types.js";

/** Answers "<input> #<n>" (n counts the calls) and records the messages of every call. */
function countingResponder(): Responder & { seen: ModelMessage[][] } {
  const seen: ModelMessage[][] = [];
  return {
    seen,
    respond({ input, messages }) {
      seen.push(messages.slice());
      return { result: Promise.resolve({ text: `${input} #${seen.length}` }) };
    },
  };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup(options: { store?: ChatStore; context?: ContextBuilder } = {}) {
  const responder = countingResponder();
  const chat = createChat({ responder, store: options.store ?? memoryStore(), ...(options.context ? { context: options.context } : {}) });
  const session = await chat.createSession();
  return { chat, session, responder };
}

describe("branches", () => {
  test("regenerate gives a second alternative on a branch made current; checkout goes back; reopen keeps it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "june-branches-"));
    dirs.push(dir);
    const { chat, session, responder } = await setup({ store: fileStore(dir) });
    const first = session.send("one");
    await first.result;
    const second = session.send("two");
    await second.result;
    const oldMessages = await session.messages();
    expect(oldMessages.map((m) => m.content)).toEqual(["one", "one #1", "two", "two #2"]);

    const again = session.regenerate();
    expect((await again.result).text).toBe("two #3");
    // The regenerated turn saw the same context as the turn it replaces: the branch up to their parent.
    expect(responder.seen[2]).toEqual(responder.seen[1]);
    const turns = await session.turns();
    expect(turns.map((t) => t.id)).toEqual([first.id, again.id]);
    expect(turns[1]!.parentTurnId).toBe(first.id);
    expect((await session.branches(second.id)).map((t) => t.id)).toEqual([second.id, again.id]);
    expect((await session.messages()).map((m) => m.content)).toEqual(["one", "one #1", "two", "two #3"]);

    // A plain send continues the current branch.
    const three = session.send("three");
    await three.result;
    expect((await session.turns()).map((t) => t.id)).toEqual([first.id, again.id, three.id]);

    const back = await session.checkout(second.id);
    expect(back.map((t) => t.id)).toEqual([first.id, second.id]);
    expect(await session.messages()).toEqual(oldMessages);

    const reopened = await chat.openSession(session.id);
    expect((await reopened.turns()).map((t) => t.id)).toEqual([first.id, second.id]);
    expect(await reopened.messages()).toEqual(oldMessages);
    // Every branch stays in the journal; checkout through a turn goes to its newest descendant.
    expect((await reopened.checkout(again.id)).map((t) => t.id)).toEqual([first.id, again.id, three.id]);
  });

  test("edit sends a new input in a turn's place; the first turn has alternatives too", async () => {
    const { session, responder } = await setup({ context: recentTurns(5) });
    const first = session.send("one");
    await first.result;
    await session.send("two").result;
    const edited = session.edit(first.id, "uno");
    expect((await edited.result).text).toBe("uno #3");
    expect(responder.seen[2]).toEqual([]);
    const turns = await session.turns();
    expect(turns.map((t) => t.input)).toEqual(["uno"]);
    expect(turns[0]!.parentTurnId).toBeUndefined();
    expect((await session.branches(first.id)).map((t) => t.input)).toEqual(["one", "uno"]);
    await session.send("dos").result;
    expect(responder.seen[3]!.map((m) => m.content)).toEqual(["uno", "uno #3"]);
    expect((await session.checkout(first.id)).map((t) => t.input)).toEqual(["one", "two"]);
  });

  test("a journal with no parentTurnId fields is one line", async () => {
    const store = memoryStore();
    await store.createSession({ id: "old" });
    const context = { builder: "fullContext", turnIds: [] };
    await store.append(
      "old",
      [
        { type: "turn-start", turnId: "a", input: "one", context },
        { type: "turn-end", turnId: "a", status: "completed", text: "ONE" },
        { type: "turn-start", turnId: "b", input: "two", context },
        { type: "turn-end", turnId: "b", status: "completed", text: "TWO" },
      ],
      { expectedSeq: 1 },
    );
    const session = await createChat({ responder: countingResponder(), store }).openSession("old");
    const turns = await session.turns();
    expect(turns.map((t) => [t.id, t.parentTurnId])).toEqual([["a", undefined], ["b", "a"]]);
    const next = session.send("three");
    await next.result;
    const start = (await store.read("old")).findLast((e) => e.type === "turn-start");
    expect(start).toMatchObject({ turnId: next.id, parentTurnId: "b" });
  });

  test("unknown turns and a busy session are refused", async () => {
    const { session } = await setup();
    expect(() => session.regenerate()).toThrow(/has no turn/);
    expect(() => session.edit("nope", "x")).toThrow(/has no turn "nope"/);
    await expect(session.branches("nope")).rejects.toThrow(/has no turn/);
    await expect(session.checkout("nope")).rejects.toThrow(/has no turn/);
  });
});
