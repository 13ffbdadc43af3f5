import { createChat } from "june/chat";
import { postgresStore } from "june/stores/postgres";
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
});
