import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { JournalCorruptError } from "./errors.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-file-store-");
const freshDir = temp.dir;
afterAll(temp.cleanup);

describe("fileStore torn and corrupt journals", () => {
  it("skips a torn last line (no newline) on read and cuts it off at the next append", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    const seq = await sessionWithTurns(store, "s", 2);
    const path = join(dir, "s.jsonl");
    const intact = readFileSync(path, "utf8");
    appendFileSync(path, '{"type":"turn-start","at":"2024-01-0');
    expect((await store.read("s")).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.getSession("s")).toMatchObject({ turnCount: 2 });
    expect((await store.listSessions())[0]).toMatchObject({ id: "s", turnCount: 2 });
    expect(readFileSync(path, "utf8")).toBe(intact + '{"type":"turn-start","at":"2024-01-0'); // reads never write
    const written = await fileStore(dir).append("s", turn("t2"), { expectedSeq: seq });
    expect(written.map((e) => e.seq)).toEqual([6, 7]);
    const text = readFileSync(path, "utf8");
    expect(text.startsWith(intact)).toBe(true);
    expect(text.split("\n").slice(0, -1).map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("skips an unreadable last line that ends in a newline, and a batch cut short", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    const seq = await sessionWithTurns(store, "s", 1);
    const path = join(dir, "s.jsonl");
    appendFileSync(path, "\u0000\u0000garbage\n");
    expect((await store.read("s")).length).toBe(3);
    await store.append("s", turn("t1"), { expectedSeq: seq });
    // A two-entry batch of which only the first line reached the disk.
    appendFileSync(path, '{"type":"turn-start","at":"2024-01-01T00:00:00.000Z","seq":6,"turnId":"t9","input":"x","context":{"builder":"full","turnIds":[]},"_more":true}\n');
    const entries = await store.read("s");
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries.some((e) => "_more" in e)).toBe(false);
    expect(await fileStore(dir).getSession("s")).toMatchObject({ turnCount: 2 });
    await store.append("s", [{ type: "feedback", turnId: "t1", score: 1 }], { expectedSeq: 5 });
    expect(readFileSync(path, "utf8")).not.toContain("t9");
    expect((await store.read("s")).map((e) => e.type)).toEqual(["session", "turn-start", "turn-end", "turn-start", "turn-end", "feedback"]);
  });

  it("a malformed line in the middle is JournalCorruptError naming the session and line; the file is left alone", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await sessionWithTurns(store, "s", 2);
    const path = join(dir, "s.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    lines[2] = "{not json";
    writeFileSync(path, lines.join("\n"));
    const before = readFileSync(path);
    const error = await store.read("s").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalCorruptError);
    expect(error).toMatchObject({ name: "JournalCorruptError", sessionId: "s", line: 3 });
    // A fresh process (no cache) finds it too; a listing still shows the session.
    await expect(fileStore(dir).read("s")).rejects.toMatchObject({ line: 3 });
    expect((await fileStore(dir).listSessions()).map((s) => s.id)).toEqual(["s"]);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("a seq out of order is corrupt too", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await sessionWithTurns(store, "s", 1);
    const path = join(dir, "s.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    writeFileSync(path, [lines[0], lines[2], lines[1], ""].join("\n"));
    await expect(store.read("s")).rejects.toMatchObject({ name: "JournalCorruptError", line: 2 });
  });

  it("lists journals written by hand (other key order) by parsing them", async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const at = "2024-05-01T10:00:00.000Z";
    const lines = [
      { seq: 1, at, type: "session", id: "h", metadata: { by: "hand" } },
      { seq: 2, at, type: "turn-start", turnId: "a", input: "hand made", context: { builder: "full", turnIds: [] } },
      { seq: 3, at: "2024-05-01T10:00:01.000Z", type: "turn-end", turnId: "a", status: "completed", text: "ok" },
    ];
    writeFileSync(join(dir, "h.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const [info] = await fileStore(dir).listSessions();
    expect(info).toEqual({
      id: "h",
      createdAt: at,
      updatedAt: "2024-05-01T10:00:01.000Z",
      title: "hand made",
      turnCount: 1,
      metadata: { by: "hand" },
    });
  });
});

describe("fileStore ids and paths", () => {
  it("refuses path-traversal ids without writing anything anywhere", async () => {
    const parent = freshDir();
    const dir = join(parent, "chat");
    mkdirSync(parent, { recursive: true });
    const store = fileStore(dir);
    for (const id of ["../x", "a/b", "", "a".repeat(129), 42, "..", "../../etc/passwd", "x.jsonl", "/abs"]) {
      const sid = id as string;
      await expect(store.createSession({ id: sid })).rejects.toMatchObject({ name: "InvalidSessionIdError" });
      await expect(store.append(sid, turn("t"), { expectedSeq: 1 })).rejects.toMatchObject({ name: "InvalidSessionIdError" });
      await expect(store.acquireTurn(sid)).rejects.toMatchObject({ name: "InvalidSessionIdError" });
      await expect(store.deleteSession(sid)).rejects.toMatchObject({ name: "InvalidSessionIdError" });
    }
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(join(parent, "..", "x.jsonl"))).toBe(false);
    await store.createSession({ id: "ok" });
    expect(readdirSync(dir)).toEqual(["ok.jsonl"]);
  });
});
