import { createChat } from "june/chat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JournalCorruptError } from "../errors.js";
import { storeChecksReads } from "../journal-open.js";
import type { Responder } from "../../chat/types.js";
import { testSchema, type TestSchema } from "./__fixtures__/postgres-test-db.js";
import { postgresStore } from "./postgres-store.js";

let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("corrupt");
});
afterAll(async () => {
  await db?.drop();
});

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

async function rejection(promise: Promise<unknown>): Promise<JournalCorruptError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(JournalCorruptError.isInstance(error), String(error)).toBe(true);
  return error as JournalCorruptError;
}

describe("postgresStore checks what it reads (so a session does not check it again)", () => {
  it("is marked as a store that checks its reads", () => {
    expect(storeChecksReads(postgresStore({ pool: db.pool, schema: db.schema }))).toBe(true);
  });

  it("a row damaged behind the store's back is a JournalCorruptError naming the table and the line, on open and on catch-up", async () => {
    const first = postgresStore({ pool: db.pool, schema: db.schema });
    const second = postgresStore({ pool: db.pool, schema: db.schema });
    const table = `the PostgreSQL table "${db.schema}"."june_entries"`;
    const session = await createChat({ responder: echo, store: first }).createSession({ id: "c" });
    await session.send("one").result;
    // Another process's turn, then damaged: its turn-start's parent names no turn, its turn-end has no turnId.
    await (await createChat({ responder: echo, store: second }).openSession("c")).send("two").result;
    await db.pool.query(`UPDATE "${db.schema}".june_entries SET entry = replace(entry::text, '"turnId":', '"turnID":')::json WHERE session_id = 'c' AND seq = 5`);
    const caughtUp = await rejection(session.turns());
    expect(caughtUp.line).toBe(5);
    expect(caughtUp.message).toContain(`line 5 of ${table}: turn-end: needs a \`turnId\``);

    await db.pool.query(
      `UPDATE "${db.schema}".june_entries SET entry = regexp_replace(entry::text, '"parentTurnId":"[^"]*"', '"parentTurnId":"gone"')::json WHERE session_id = 'c' AND seq = 4`,
    );
    const opened = await rejection(createChat({ responder: echo, store: second }).openSession("c"));
    expect(opened.line).toBe(4);
    expect(opened.message).toContain(`line 4 of ${table}: turn-start: \`parentTurnId\` "gone" names no earlier turn`);
    await first.close();
    await second.close();
  });
});
