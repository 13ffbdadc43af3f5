import { createChat } from "june/chat";
import { postgresStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("chat");
});
afterAll(async () => {
  await db?.drop();
});

describe("createChat on postgresStore", () => {
  it("journals a model turn; a chat in another 'process' (its own pool) continues the session", async () => {
    const first = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    const second = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    try {
      const model = scriptedModel({ text: ["Hello, ", "Ada!"] });
      const chat = createChat({ model, store: first, version: "v1" });
      const session = await chat.createSession({ metadata: { user: "ada" } });
      const { text, metadata } = await session.send("Hi, I am Ada").result;
      expect(text).toBe("Hello, Ada!");
      expect(metadata.responder).toMatchObject({ kind: "model", version: "v1" });
      expect(await chat.listSessions()).toEqual([
        expect.objectContaining({ id: session.id, title: "Hi, I am Ada", turnCount: 1, metadata: { user: "ada" } }),
      ]);

      const next = scriptedModel("Ada, you said hi.");
      const elsewhere = await createChat({ model: next, store: second }).openSession(session.id);
      const [earlier] = await elsewhere.turns();
      expect(earlier).toMatchObject({ input: "Hi, I am Ada", status: "completed", text: "Hello, Ada!" });
      expect(await elsewhere.send("What is my name?").result).toMatchObject({ text: "Ada, you said hi." });
      // The second model call saw the first turn, read back from the database.
      const prompt = JSON.stringify(next.doStreamCalls[0]!.prompt);
      expect(prompt).toContain("Hi, I am Ada");
      expect(prompt).toContain("Hello, Ada!");

      const entries = await first.read(session.id);
      expect(entries.map((e) => e.type)).toEqual(["session", "turn-start", "turn-end", "turn-start", "turn-end"]);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(await first.getSession(session.id)).toMatchObject({ turnCount: 2, title: "Hi, I am Ada" });
      // Both turns released their leases.
      const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".june_leases`);
      expect(rows[0].n).toBe(0);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("a turn in one process makes the same session busy in the other", async () => {
    const first = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    const second = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    try {
      const slow = scriptedModel({ text: ["thinking", " slowly"], delay: 400 });
      const session = await createChat({ model: slow, store: first }).createSession();
      const running = session.send("take your time");
      // Wait until the turn holds its lease (its turn-start is journaled after the lease is taken).
      while ((await first.read(session.id)).length < 2) await new Promise((r) => setTimeout(r, 10));
      const other = await createChat({ model: scriptedModel("never"), store: second }).openSession(session.id);
      await expect(other.send("me too").result).rejects.toMatchObject({ name: "SessionBusyError", sessionId: session.id });
      expect(await running.result).toMatchObject({ text: "thinking slowly" });
      expect(await other.send("now?").result).toMatchObject({ text: "never" });
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("two processes sending into one session at once: each turn completes or is busy, and the journal never interleaves them", async () => {
    const first = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    const second = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    const third = postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema });
    try {
      const reply = (tag: string) => ({ respond: ({ input }: { input: string }) => ({ result: new Promise<{ text: string }>((r) => setTimeout(() => r({ text: `${tag}: ${input}` }), 5)) }) });
      const a = await createChat({ responder: reply("a"), store: first }).createSession();
      const b = await createChat({ responder: reply("b"), store: second }).openSession(a.id);
      // A third holder that only takes and releases the lease, now and then.
      let stop = false;
      const poker = (async () => {
        while (!stop) {
          const lease = await third.acquireTurn(a.id).catch(() => undefined);
          await new Promise((r) => setTimeout(r, 3));
          if (lease) await third.releaseTurn(lease);
          await new Promise((r) => setTimeout(r, 7));
        }
      })();
      let completed = 0;
      for (let round = 0; round < 12; round++) {
        const results = await Promise.allSettled([a.send(`a${round}`).result, b.send(`b${round}`).result]);
        for (const r of results) {
          if (r.status === "fulfilled") completed++;
          else expect(r.reason).toMatchObject({ name: "SessionBusyError" });
        }
      }
      stop = true;
      await poker;
      expect(completed).toBeGreaterThan(0);
      const entries = await first.read(a.id);
      // Every turn-start is followed by its own end before anything else starts; each turn continues the last.
      let open: string | undefined;
      let last: string | undefined;
      for (const entry of entries) {
        if (entry.type === "turn-start") {
          expect(open, `turn ${entry.turnId} started inside turn ${open}`).toBeUndefined();
          expect(entry.parentTurnId).toBe(last);
          open = entry.turnId;
        } else if (entry.type === "turn-end") {
          expect(entry.turnId).toBe(open);
          expect(entry.status).toBe("completed");
          last = open;
          open = undefined;
        }
      }
      expect(open).toBeUndefined();
      expect(entries.filter((e) => e.type === "turn-end")).toHaveLength(completed);
      expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
      const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM "${db.schema}".june_leases WHERE session_id = $1`, [a.id]);
      expect(rows[0].n).toBe(0);
    } finally {
      await first.close();
      await second.close();
      await third.close();
    }
  });
});
