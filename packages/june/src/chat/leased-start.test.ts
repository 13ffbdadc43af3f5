import { describe, expect, it } from "vitest";
import { SessionBusyError } from "../stores/errors.js";
import { memoryStore } from "../stores/memory-store.js";
import type { ChatStore, LeasedAppend } from "../stores/types.js";
import { storeConformanceCases } from "../testing/store-conformance.js";
import { fullContext } from "./context/full-context.js";
import { isHistoryOnly, markHistoryOnly } from "./context/history-only.js";
import { recentTurns } from "./context/recent-turns.js";
import { summarizedContext } from "./context/summarized-context.js";
import { tokenBudget } from "./context/token-budget.js";
import { createChat } from "./create-chat.js";
import type { ContextBuilder, Responder } from "./types.js";
import { scriptedModel } from "../testing/scripted-model.js";

/** A memory store given `acquireTurnAndAppend` by composition (its two calls), recording which calls a turn makes. */
function leasingStore(): { store: ChatStore; calls: string[] } {
  const inner = memoryStore();
  const calls: string[] = [];
  const store: ChatStore = {
    ...inner,
    async acquireTurn(id, options) {
      calls.push("acquireTurn");
      return inner.acquireTurn(id, options);
    },
    async append(id, entries, options) {
      calls.push(`append ${entries.map((e) => e.type).join(",")}`);
      return inner.append(id, entries, options);
    },
    async acquireTurnAndAppend(id, entries, options): Promise<LeasedAppend> {
      calls.push(`acquireTurnAndAppend ${entries.map((e) => e.type).join(",")}`);
      const lease = await inner.acquireTurn(id, options.ttlMs === undefined ? undefined : { ttlMs: options.ttlMs });
      try {
        return { lease, entries: await inner.append(id, entries, options) };
      } catch (error) {
        await inner.releaseTurn(lease);
        throw error;
      }
    },
  };
  return { store, calls };
}

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

describe("the builders a turn may build before it holds the lease", () => {
  it("fullContext, recentTurns and tokenBudget are marked; summarizedContext and the user's builders are not, whatever their name", () => {
    expect(isHistoryOnly(fullContext())).toBe(true);
    expect(isHistoryOnly(recentTurns(3))).toBe(true);
    expect(isHistoryOnly(tokenBudget({ maxTokens: 100 }))).toBe(true);
    expect(isHistoryOnly(summarizedContext({ model: scriptedModel("x"), keepRecent: 2, triggerTokens: 10 }))).toBe(false);
    const fullContextBuilder: ContextBuilder = () => [];
    expect(isHistoryOnly(fullContextBuilder)).toBe(false);
    // The mark is not copied by a spread, and is no key of the builder's.
    expect(Object.keys(fullContext())).toEqual([]);
  });
});

describe("a turn's start with a store that takes the lease and appends at once", () => {
  it("one call for the lease and the turn-start with a marked builder; two with any other", async () => {
    const { store, calls } = leasingStore();
    const session = await createChat({ responder: echo, store }).createSession();
    await session.send("one").result;
    expect(calls).toEqual(["acquireTurnAndAppend turn-start", "append turn-end"]);
    calls.length = 0;
    const custom = await createChat({ responder: echo, store, context: (history) => history.flatMap(() => []) }).openSession(session.id);
    await custom.send("two").result;
    expect(calls).toEqual(["acquireTurn", "append turn-start", "append turn-end"]);
    expect((await custom.turns()).map((t) => t.status)).toEqual(["completed", "completed"]);
  });

  it("the conformance cases of acquireTurnAndAppend pass for the composed store", async () => {
    for (const c of storeConformanceCases(() => leasingStore().store).filter((c) => c.name.includes("acquireTurnAndAppend"))) await c.run();
  });

  it("a session whose lease is held: the turn fails SessionBusyError after the usual acquireTurn, nothing journaled, the responder not called", async () => {
    const { store, calls } = leasingStore();
    let called = 0;
    const session = await createChat({ responder: { respond: () => (called++, { result: Promise.resolve({ text: "x" }) }) }, store }).createSession();
    const held = await store.acquireTurn(session.id);
    calls.length = 0;
    const turn = session.send("hi");
    await expect(turn.result).rejects.toSatisfy((e) => SessionBusyError.isInstance(e));
    expect(calls).toEqual(["acquireTurnAndAppend turn-start", "acquireTurn"]);
    expect(called).toBe(0);
    expect((await store.read(session.id)).map((e) => e.type)).toEqual(["session"]);
    await store.releaseTurn(held);
    expect((await session.send("again").result).text).toBe("x");
  });

  it("a journal moved on elsewhere: the one call writes nothing, then the turn reads what is new and calls it again from there", async () => {
    const { store, calls } = leasingStore();
    const session = await createChat({ responder: echo, store }).createSession();
    await session.send("one").result;
    await (await createChat({ responder: echo, store }).openSession(session.id)).send("elsewhere").result;
    calls.length = 0;
    await session.send("two").result;
    expect(calls).toEqual(["acquireTurnAndAppend turn-start", "acquireTurnAndAppend turn-start", "append turn-end"]);
    const turns = await session.turns();
    expect(turns.map((t) => t.input)).toEqual(["one", "elsewhere", "two"]);
    expect(turns[2]!.parentTurnId).toBe(turns[1]!.id);
  });

  it("a journal that moves on again: the turn takes the lease and appends in two calls", async () => {
    const { store, calls } = leasingStore();
    const session = await createChat({ responder: echo, store }).createSession();
    let moves = 0;
    const moving: ChatStore = {
      ...store,
      async acquireTurnAndAppend(id, entries, options) {
        // Another process's feedback lands right before each call.
        if (moves++ < 2) await store.append(id, [{ type: "rename", title: `moved ${moves}` }], { expectedSeq: (await store.read(id)).length });
        return store.acquireTurnAndAppend!(id, entries, options);
      },
    };
    const chat = createChat({ responder: echo, store: moving });
    const reopened = await chat.openSession(session.id);
    calls.length = 0;
    await reopened.send("hi").result;
    expect(calls.filter((c) => !c.startsWith("append rename"))).toEqual([
      "acquireTurnAndAppend turn-start",
      "acquireTurnAndAppend turn-start",
      "acquireTurn",
      "append turn-start",
      "append turn-end",
    ]);
    expect((await store.read(session.id)).map((e) => e.type)).toEqual(["session", "rename", "rename", "turn-start", "turn-end"]);
  });

  it("a marked builder that throws: the turn takes the usual path and fails there with the builder's error, holding the lease first", async () => {
    const { store, calls } = leasingStore();
    const failing = markHistoryOnly(() => {
      throw new Error("no context");
    });
    const session = await createChat({ responder: echo, store, context: failing }).createSession();
    await expect(session.send("hi").result).rejects.toMatchObject({ name: "ContextBuildError" });
    expect(calls).toEqual(["acquireTurn"]);
    expect((await store.read(session.id)).map((e) => e.type)).toEqual(["session"]);
    // The lease was released.
    await store.releaseTurn(await store.acquireTurn(session.id));
  });

  it("a session with an unfinished turn: the lease first, then the check for a waiting turn, as before", async () => {
    const { store, calls } = leasingStore();
    const session = await createChat({ responder: echo, store }).createSession();
    // A turn some process started and never ended (it died).
    await store.append(session.id, [{ type: "turn-start", turnId: "dead", input: "x", context: { builder: "fullContext", turnIds: [] } }], { expectedSeq: 1 });
    const reopened = await createChat({ responder: echo, store }).openSession(session.id);
    calls.length = 0;
    await reopened.send("next").result;
    expect(calls).toEqual(["acquireTurn", "append turn-start", "append turn-end"]);
  });

  it("a store whose acquireTurnAndAppend fails otherwise (not busy, not moved): the turn fails with that error, nothing journaled", async () => {
    const { store } = leasingStore();
    const broken: ChatStore = {
      ...store,
      acquireTurnAndAppend: async () => {
        throw new Error("connection lost");
      },
    };
    const session = await createChat({ responder: echo, store: broken }).createSession();
    await expect(session.send("hi").result).rejects.toThrow("connection lost");
    expect((await store.read(session.id)).map((e) => e.type)).toEqual(["session"]);
  });
});
