import { createChat, fullContext, recentTurns, summarizedContext, tokenBudget } from "june/chat";
import { scriptedModel } from "june/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore } from "../types.js";
import type { PgPool } from "./postgres-schema.js";
import { testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("round_trips");
});
afterAll(async () => {
  await db?.drop();
});

/** The test pool, counting the statements sent through it. */
function counted(): { pool: PgPool; sent: string[] } {
  const sent: string[] = [];
  const pool: PgPool = {
    query: ((text: string, values?: unknown[]) => {
      sent.push(text);
      return db.pool.query(text, values);
    }) as PgPool["query"],
    connect: () => db.pool.connect() as never,
    end: async () => {},
  };
  return { pool, sent };
}

describe("postgresStore round trips of a turn", () => {
  it("a turn-end appended with endsLease releases the lease in the same statement; releaseTurn then sends nothing", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    await store.createSession({ id: "s" });
    sent.length = 0;
    const lease = await store.acquireTurn("s");
    await store.append("s", [{ type: "turn-start", turnId: "t", input: "hi", context: { builder: "full", turnIds: [] } }], { expectedSeq: 1 });
    await store.append("s", [{ type: "turn-end", turnId: "t", status: "completed", text: "hello" }], { expectedSeq: 2, sync: true, endsLease: lease });
    await store.releaseTurn(lease);
    expect(sent.length).toBe(3);
    // Released: another holder takes it at once.
    const next = await store.acquireTurn("s");
    await store.releaseTurn(next);
    await store.close();
  });

  it("an append that fails (a conflict) keeps the lease; releaseTurn releases it", async () => {
    const store = postgresStore({ pool: counted().pool, schema: db.schema });
    await store.createSession({ id: "c" });
    const lease = await store.acquireTurn("c");
    await expect(
      store.append("c", [{ type: "rename", title: "x" }], { expectedSeq: 5, endsLease: lease }),
    ).rejects.toMatchObject({ name: "ConflictError" });
    await expect(store.acquireTurn("c")).rejects.toMatchObject({ name: "SessionBusyError" });
    await store.releaseTurn(lease);
    await store.releaseTurn(await store.acquireTurn("c"));
    await store.close();
  });

  it("a lease of another session given as endsLease is left alone", async () => {
    const store = postgresStore({ pool: counted().pool, schema: db.schema });
    await store.createSession({ id: "a" });
    await store.createSession({ id: "b" });
    const leaseB = await store.acquireTurn("b");
    await store.append("a", [{ type: "rename", title: "x" }], { expectedSeq: 1, endsLease: leaseB });
    await expect(store.acquireTurn("b")).rejects.toMatchObject({ name: "SessionBusyError" });
    await store.releaseTurn(leaseB);
    await store.close();
  });
});

/** Statements a turn sends: `sent` from before `send` until its result settled. */
async function statementsOf(sent: string[], turn: () => Promise<unknown>): Promise<number> {
  const before = sent.length;
  await turn();
  return sent.length - before;
}

const model = () => scriptedModel(({ index }) => `reply ${index}`);

describe("postgresStore round trips of a model-chat turn", () => {
  it("fullContext (the default), recentTurns, tokenBudget: two statements a turn, the lease and the turn-start in one", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    for (const context of [undefined, fullContext(), recentTurns(2), tokenBudget({ maxTokens: 1_000 })]) {
      const session = await createChat({ model: model(), store, ...(context ? { context } : {}) }).createSession();
      for (let i = 0; i < 4; i++) expect(await statementsOf(sent, () => session.send(`question ${i}`).result)).toBe(2);
      const turns = await session.turns();
      expect(turns.map((t) => [t.status, t.text])).toEqual([0, 1, 2, 3].map((i) => ["completed", `reply ${i}`]));
      expect(turns.slice(1).map((t) => t.parentTurnId)).toEqual(turns.slice(0, -1).map((t) => t.id));
    }
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".june_leases`);
    expect(rows[0].n).toBe(0);
    await store.close();
  });

  it("regenerate and a new first turn (a checkout journaled with the turn-start): two statements too, the branch as before", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    const session = await createChat({ model: model(), store }).createSession();
    await session.send("one").result;
    await session.send("two").result;
    const [first, second] = await session.turns();
    expect(await statementsOf(sent, () => session.regenerate().result)).toBe(2);
    const again = (await session.turns()).at(-1)!;
    expect(again).toMatchObject({ input: "two", parentTurnId: first!.id });
    expect(again.id).not.toBe(second!.id);
    expect(await statementsOf(sent, () => session.edit(first!.id, "zero").result)).toBe(2);
    const branch = await session.turns();
    expect(branch.map((t) => t.input)).toEqual(["zero"]);
    expect((await store.read(session.id)).map((e) => e.type).slice(-3)).toEqual(["checkout", "turn-start", "turn-end"]);
    await store.close();
  });

  it("summarizedContext (it may call a model) keeps three: the lease first, then the context, then the turn-start", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    const context = summarizedContext({ model: scriptedModel("never called"), keepRecent: 4, triggerTokens: 1_000_000 });
    const session = await createChat({ model: model(), store, context }).createSession();
    for (let i = 0; i < 3; i++) expect(await statementsOf(sent, () => session.send(`question ${i}`).result)).toBe(3);
    await store.close();
  });

  it("a store copied by spreading (a wrapper) keeps three: its acquireTurn and append are not bypassed", async () => {
    const { pool, sent } = counted();
    const inner = postgresStore({ pool, schema: db.schema });
    let leases = 0;
    const wrapped: ChatStore = { ...inner, acquireTurn: (id, options) => (leases++, inner.acquireTurn(id, options)) };
    expect(wrapped.acquireTurnAndAppend).toBeUndefined();
    const session = await createChat({ model: model(), store: wrapped }).createSession();
    expect(await statementsOf(sent, () => session.send("hi").result)).toBe(3);
    expect(leases).toBe(1);
    await inner.close();
  });

  it("a session whose lease another process holds: nothing is journaled, the turn fails SessionBusyError through the usual path", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    const elsewhere = postgresStore({ pool: db.pool, schema: db.schema });
    const responded: string[] = [];
    const chat = createChat({ responder: { respond: ({ input }) => (responded.push(input), { result: Promise.resolve({ text: "x" }) }) }, store });
    const session = await chat.createSession();
    await session.send("first").result;
    const held = await elsewhere.acquireTurn(session.id);
    // The one statement (it names the holder); then the lease asked for the usual way, and the holder named again.
    const count = await statementsOf(sent, async () => {
      await expect(session.send("second").result).rejects.toMatchObject({ name: "SessionBusyError", sessionId: session.id });
    });
    expect(count).toBe(3);
    expect(responded).toEqual(["first"]);
    expect((await store.read(session.id)).map((e) => e.type)).toEqual(["session", "turn-start", "turn-end"]);
    await elsewhere.releaseTurn(held);
    expect(await statementsOf(sent, () => session.send("third").result)).toBe(2);
    expect((await session.turns()).map((t) => t.input)).toEqual(["first", "third"]);
    await store.close();
    await elsewhere.close();
  });

  it("a journal another process moved on: nothing is written by the one statement; what is new is read, and the statement sent again", async () => {
    const { pool, sent } = counted();
    const store = postgresStore({ pool, schema: db.schema });
    const elsewhere = postgresStore({ pool: db.pool, schema: db.schema });
    const seen: string[][] = [];
    const chat = createChat({
      responder: { respond: ({ messages }) => (seen.push(messages.map((m) => String(m.content))), { result: Promise.resolve({ text: "x" }) }) },
      store,
    });
    const session = await chat.createSession();
    await session.send("first").result;
    // Another process answers a turn in the session: this process does not know it yet.
    const other = await createChat({ responder: { respond: () => ({ result: Promise.resolve({ text: "from elsewhere" }) }) }, store: elsewhere }).openSession(session.id);
    await other.send("meanwhile").result;
    // The statement (nothing written), the read of what is new, the statement again, the turn-end.
    expect(await statementsOf(sent, () => session.send("second").result)).toBe(4);
    const turns = await session.turns();
    expect(turns.map((t) => t.input)).toEqual(["first", "meanwhile", "second"]);
    expect(turns[2]!.parentTurnId).toBe(turns[1]!.id);
    // The second turn's context was built from the fresh history: it saw the other process's turn.
    expect(seen[1]!.join(" ")).toContain("from elsewhere");
    expect((await store.read(session.id)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await store.close();
    await elsewhere.close();
  });
});
