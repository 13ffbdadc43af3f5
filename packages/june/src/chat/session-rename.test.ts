import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat } from "june/chat";
import { fileStore, memoryStore } from "june/chat";
import { postgresStore } from "june/chat";
import { sqliteStore } from "june/chat";
import { scriptedModel } from "june/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatStore } from "../stores/types.js";
import { TEST_DATABASE_URL, testSchema, type TestSchema } from "../stores/postgres/__fixtures__/postgres-test-db.js";

const root = mkdtempSync(join(tmpdir(), "june-rename-"));
let db: TestSchema;
beforeAll(async () => {
  db = await testSchema("rename");
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await db?.drop();
});

/** Each store twice over the same data: the second stands for the process after a restart. */
const stores: { name: string; open: () => { first: ChatStore; again: () => ChatStore } }[] = [
  {
    name: "fileStore",
    open: () => {
      const dir = mkdtempSync(join(root, "files-"));
      return { first: fileStore(dir), again: () => fileStore(dir) };
    },
  },
  {
    name: "sqliteStore",
    open: () => {
      const path = join(mkdtempSync(join(root, "sqlite-")), "chat.db");
      return { first: sqliteStore(path), again: () => sqliteStore(path) };
    },
  },
  {
    name: "postgresStore",
    open: () => ({
      first: postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema }),
      again: () => postgresStore({ connectionString: TEST_DATABASE_URL, schema: db.schema }),
    }),
  },
  {
    name: "memoryStore",
    open: () => {
      const store = memoryStore();
      // Nothing outlives the process; the same store stands in for the second look.
      return { first: store, again: () => store };
    },
  },
];

describe("session.rename", () => {
  for (const { name, open } of stores) {
    it(`${name}: the title given wins over the first input, after a restart and a later turn too`, async () => {
      const { first, again } = open();
      const chat = createChat({ model: scriptedModel(["Deployed.", "Again."]), store: first });
      const session = await chat.createSession();
      await session.send("Deploy the docs to staging").result;
      expect((await chat.store.getSession(session.id))?.title).toBe("Deploy the docs to staging");

      expect(await session.rename("  Docs   deploy\n(staging) ")).toBe("Docs deploy (staging)");
      expect((await chat.listSessions()).find((s) => s.id === session.id)?.title).toBe("Docs deploy (staging)");
      if (first !== again()) await first.close?.();

      const store = again();
      const later = createChat({ model: scriptedModel("Again."), store });
      try {
        expect((await later.store.getSession(session.id))?.title).toBe("Docs deploy (staging)");
        const reopened = await later.openSession(session.id);
        await reopened.send("Deploy it again").result;
        const info = (await later.listSessions()).find((s) => s.id === session.id);
        expect(info).toMatchObject({ title: "Docs deploy (staging)", turnCount: 2 });
        expect((await reopened.turns()).map((turn) => turn.input)).toEqual(["Deploy the docs to staging", "Deploy it again"]);
      } finally {
        await store.close?.();
      }
    });
  }

  it("renames a session while its turn runs (fileStore): the turn journals on, the name holds", async () => {
    const dir = mkdtempSync(join(root, "running-"));
    const chat = createChat({ model: scriptedModel({ text: ["a ", "long ", "reply"], delay: 30 }), store: fileStore(dir) });
    const session = await chat.createSession();
    const turn = session.send("Write slowly");
    for await (const event of turn) if (event.type === "text-delta") break;
    await session.rename("Renamed mid-turn");
    await turn.result;
    const reopened = createChat({ model: scriptedModel("x"), store: fileStore(dir) });
    expect((await reopened.store.getSession(session.id))?.title).toBe("Renamed mid-turn");
    expect((await (await reopened.openSession(session.id)).turns())[0]).toMatchObject({ status: "completed", text: "a long reply" });
  });

  it("refuses a blank or too long title, or one that is not a string, naming what was wrong; masks credentials", async () => {
    const chat = createChat({ model: scriptedModel("ok") });
    const session = await chat.createSession();
    await expect(session.rename("   ")).rejects.toThrow(new TypeError("session.rename(title): title must not be blank: it has no visible character"));
    await expect(session.rename(42 as unknown as string)).rejects.toThrow(/title must be a string, got number/);
    await expect(session.rename("x".repeat(81))).rejects.toThrow(new RangeError("session.rename(title): title is 81 characters, at most 80 are kept"));
    const key = "sk-proj-AbC123dEf456GhI789jKl012MnO345pQr678";
    const title = await session.rename(`Key ${key}`);
    expect(title).not.toContain(key);
    expect((await chat.store.getSession(session.id))?.title).toBe(title);
    expect(JSON.stringify(await chat.store.read(session.id))).not.toContain(key);
  });
});

describe("session.alternatives", () => {
  it("lists the alternatives at each turn of the current branch that has any, in one read", async () => {
    const chat = createChat({ model: scriptedModel(["one", "two", "two again", "three"]) });
    const session = await chat.createSession();
    const run = async (turn: { id: string; result: Promise<unknown> }) => (await turn.result, turn.id);
    const a = await run(session.send("a"));
    const b = await run(session.send("b"));
    expect(await session.alternatives()).toEqual({});
    const again = await run(session.regenerate(b));
    expect(await session.alternatives()).toEqual({ [again]: [b, again] });
    await run(session.send("c"));
    expect(await session.alternatives()).toEqual({ [again]: [b, again] });
    await session.checkout(b);
    expect(await session.alternatives()).toEqual({ [b]: [b, again] });
    expect(Object.keys(await session.alternatives())).not.toContain(a);
  });
});
