import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-file-read-appended-");
afterAll(temp.cleanup);

describe("fileStore reads from a later seq", () => {
  it("returns nothing new, then only what another writer appended, then nothing again", async () => {
    const dir = temp.dir();
    const mine = fileStore(dir, { fsync: false });
    const other = fileStore(dir, { fsync: false });
    const seq = await sessionWithTurns(mine, "s", 3);
    expect(await mine.read("s", { fromSeq: seq + 1 })).toEqual([]);
    await other.append("s", turn("x"), { expectedSeq: seq });
    const fresh = await mine.read("s", { fromSeq: seq + 1 });
    expect(fresh.map((e) => [e.seq, e.type])).toEqual([
      [seq + 1, "turn-start"],
      [seq + 2, "turn-end"],
    ]);
    expect(await mine.read("s", { fromSeq: seq + 3 })).toEqual([]);
    // The listing followed: the next append checks against it.
    await expect(mine.append("s", turn("y"), { expectedSeq: seq })).rejects.toMatchObject({ name: "ConflictError" });
    await mine.append("s", turn("y"), { expectedSeq: seq + 2 });
    expect((await mine.getSession("s"))?.turnCount).toBe(5);
    expect((await fileStore(dir).read("s")).map((e) => e.seq)).toEqual(Array.from({ length: seq + 4 }, (_, i) => i + 1));
  });

  it("leaves out a torn tail after the known part, and names a damaged appended line", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false });
    const seq = await sessionWithTurns(store, "s", 1);
    const path = join(dir, "s.jsonl");
    appendFileSync(path, '{"type":"feedback","turnId":"t0"');
    expect(await store.read("s", { fromSeq: seq + 1 })).toEqual([]);

    const damaged = temp.dir();
    const other = fileStore(damaged, { fsync: false });
    const at = await sessionWithTurns(other, "s", 1);
    const text = readFileSync(join(damaged, "s.jsonl"), "utf8");
    writeFileSync(join(damaged, "s.jsonl"), `${text}{"type":"feedback","seq":${at + 5},"at":"${new Date().toISOString()}","turnId":"t0","score":1}\n`);
    await expect(other.read("s", { fromSeq: at + 1 })).rejects.toMatchObject({ name: "JournalCorruptError" });
  });
});
