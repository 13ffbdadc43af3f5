import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-file-store-");
const freshDir = temp.dir;
afterAll(temp.cleanup);

describe("fileStore listings and scale", () => {
  it("sees appends made by another store instance (another process) in get, list and append", async () => {
    const dir = freshDir();
    const a = fileStore(dir);
    const b = fileStore(dir);
    const seq = await sessionWithTurns(a, "s", 1);
    expect((await a.listSessions())[0].turnCount).toBe(1);
    await b.append("s", turn("t1", "from b"), { expectedSeq: seq });
    await expect(a.append("s", turn("t2"), { expectedSeq: seq })).rejects.toMatchObject({ name: "ConflictError" });
    expect((await a.getSession("s"))?.turnCount).toBe(2);
    expect((await a.listSessions())[0].turnCount).toBe(2);
    await b.deleteSession("s");
    expect(await a.listSessions()).toEqual([]);
    expect(await a.getSession("s")).toBeUndefined();
  });

  it("keeps a rebuildable index: a new instance lists from it, a broken one is rebuilt", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    for (let i = 0; i < 30; i++) await sessionWithTurns(store, `s${i}`, i % 3);
    const listed = await store.listSessions();
    expect(listed).toHaveLength(30);
    const indexPath = join(dir, ".sessions-index.json");
    expect(existsSync(indexPath)).toBe(true);
    expect(await fileStore(dir).listSessions()).toEqual(listed);
    writeFileSync(indexPath, "{broken");
    expect(await fileStore(dir).listSessions()).toEqual(listed);
    expect(listed.map((s) => s.id)).toEqual(listed.slice().sort((x, y) => (x.updatedAt < y.updatedAt ? 1 : x.updatedAt > y.updatedAt ? -1 : 0)).map((s) => s.id));
  });

  it("lists 1,000 sessions newest first", async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    // Written directly (the store's own format) to keep the test quick.
    const base = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 1000; i++) {
      const at = (s: number) => new Date(base + i * 1000 + s).toISOString();
      const lines = [
        { type: "session", at: at(0), seq: 1, id: `s${i}` },
        { type: "turn-start", at: at(1), seq: 2, turnId: "a", input: `question ${i}`, context: { builder: "full", turnIds: [] } },
        { type: "turn-end", at: at(2), seq: 3, turnId: "a", status: "completed", text: "answer" },
      ];
      writeFileSync(join(dir, `s${i}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    }
    const store = fileStore(dir);
    const all = await store.listSessions();
    expect(all).toHaveLength(1000);
    expect(all[0]).toMatchObject({ id: "s999", title: "question 999", turnCount: 1 });
    expect(all[999].id).toBe("s0");
    const page = await store.listSessions({ before: all[9].updatedAt, limit: 5 });
    expect(page.map((s) => s.id)).toEqual(["s989", "s988", "s987", "s986", "s985"]);
  });

  it("reads a journal of 10,000 turns", async () => {
    const dir = freshDir();
    const store = fileStore(dir, { fsync: false });
    await store.createSession({ id: "big" });
    let seq = 1;
    for (let batch = 0; batch < 50; batch++) {
      const entries = Array.from({ length: 200 }, (_, i) => turn(`t${batch * 200 + i}`)).flat();
      seq = (await store.append("big", entries, { expectedSeq: seq })).at(-1)!.seq;
    }
    const entries = await fileStore(dir).read("big");
    expect(entries).toHaveLength(20_001);
    expect(entries.at(-1)).toMatchObject({ seq: 20_001, type: "turn-end", turnId: "t9999" });
    expect(await fileStore(dir).read("big", { fromSeq: 19_999 })).toHaveLength(3);
    expect(await fileStore(dir).getSession("big")).toMatchObject({ turnCount: 10_000, title: "input of t0" });
  });
});
