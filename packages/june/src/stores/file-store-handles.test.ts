import { createHook } from "node:async_hooks";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";
import { JournalHandles } from "./journal-handles.js";

const temp = tempRoot("june-file-handles-");
const freshDir = temp.dir;
afterAll(temp.cleanup);

/** How many async resources of each type `task` creates (a FILEHANDLE is a journal opened). */
async function countResources(task: () => Promise<void>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const hook = createHook({ init: (_id, type) => void counts.set(type, (counts.get(type) ?? 0) + 1) }).enable();
  try {
    await task();
  } finally {
    hook.disable();
  }
  return counts;
}

describe("fileStore keeps a session's journal open between appends", () => {
  it("opens it once for many appends, and makes no other thread-pool call unless flushing", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    let seq = await sessionWithTurns(store, "s", 1);
    const counts = await countResources(async () => {
      for (let i = 0; i < 10; i++) seq = (await store.append("s", turn(`k${i}`), { expectedSeq: seq })).at(-1)!.seq;
      await store.append("s", [{ type: "feedback", turnId: "k0", score: 1 }], { expectedSeq: seq, sync: true });
    });
    expect(counts.get("FILEHANDLE") ?? 0).toBe(0); // opened by the appends of sessionWithTurns already
    expect(counts.get("FSREQPROMISE") ?? 0).toBe(1); // the flush
    expect((await fileStore(dir).read("s")).map((e) => e.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    await store.close!();
  });

  it("notices a journal deleted, or deleted and created again, by another store (another process)", async () => {
    const dir = freshDir();
    const mine = fileStore(dir);
    const other = fileStore(dir);
    const seq = await sessionWithTurns(mine, "s", 2);

    await other.deleteSession("s");
    await expect(mine.append("s", turn("x"), { expectedSeq: seq })).rejects.toMatchObject({ name: "SessionNotFoundError" });

    await sessionWithTurns(mine, "r", 2);
    await other.deleteSession("r");
    await other.createSession({ id: "r" });
    // The new journal is at seq 1: the append checks it, not the file this store had open.
    await expect(mine.append("r", turn("x"), { expectedSeq: seq })).rejects.toMatchObject({ name: "ConflictError" });
    await mine.append("r", turn("y"), { expectedSeq: 1 });
    expect((await other.read("r")).map((e) => e.type)).toEqual(["session", "turn-start", "turn-end"]);
    expect(readFileSync(join(dir, "r.jsonl"), "utf8")).toContain('"turnId":"y"');
  });

  it("close() closes the journals; the store still works after it", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    const seq = await sessionWithTurns(store, "s", 1);
    await store.close!();
    const counts = await countResources(async () => {
      await store.append("s", turn("after"), { expectedSeq: seq });
    });
    expect(counts.get("FILEHANDLE")).toBe(1); // opened again
    expect((await store.read("s")).length).toBe(5);
    await store.close!();
  });
});

describe("JournalHandles", () => {
  it("closes a journal once idle, never while in use", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const path = join(dir, "s.jsonl");
    const handles = new JournalHandles(20);
    await handles.use("s", path, async () => {
      await sleep(60);
      expect(handles.size).toBe(1);
    });
    expect(handles.size).toBe(1);
    await sleep(80);
    expect(handles.size).toBe(0);

    // Retired while in use: the use goes on with its handle, which closes after it.
    await handles.use("s", path, async (fh) => {
      handles.retire("s");
      expect(handles.size).toBe(0);
      expect((await fh.stat()).isFile()).toBe(true);
    });
    await expect(handles.use("gone", join(dir, "gone.jsonl"), async () => undefined)).rejects.toMatchObject({
      name: "SessionNotFoundError",
    });
    await handles.closeAll();
  });
});

describe("fileStore lease release", () => {
  it("removes its own lock, and never a lock someone else holds now", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const lockPath = join(dir, "s.lock");

    await store.releaseTurn(await store.acquireTurn("s"));
    expect(existsSync(lockPath)).toBe(false);

    // The lock was replaced (the session deleted and taken by another holder): the release leaves it.
    const lease = await store.acquireTurn("s");
    const theirs = JSON.stringify({ pid: process.pid, host: hostname(), token: "theirs", acquiredAt: new Date().toISOString() });
    writeFileSync(lockPath, theirs);
    await store.releaseTurn(lease);
    expect(readFileSync(lockPath, "utf8")).toBe(theirs);
  });

  it("past half its expiry, checks with the atomic rename, and leaves a lock taken over", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    const other = fileStore(dir);
    await store.createSession({ id: "s" });
    const lockPath = join(dir, "s.lock");

    const lease = await store.acquireTurn("s", { ttlMs: 30 });
    await sleep(40);
    const taken = await other.acquireTurn("s"); // expired: taken over
    await store.releaseTurn(lease);
    expect(JSON.parse(readFileSync(lockPath, "utf8"))).toMatchObject({ token: taken.token });
    await other.releaseTurn(taken);
    expect(existsSync(lockPath)).toBe(false);

    const late = await store.acquireTurn("s", { ttlMs: 60_000 });
    await store.releaseTurn(late);
    await store.releaseTurn(late); // twice: nothing to do
    expect(existsSync(lockPath)).toBe(false);
  });
});

describe("JournalHandles limits", () => {
  it("keeps at most maxKept journals open, closing the least recently used", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    const handles = new JournalHandles(60_000, 3);
    const ids = ["a", "b", "c", "d"];
    for (const id of ids) await store.createSession({ id });
    const use = (id: string) => handles.use(id, join(dir, `${id}.jsonl`), async () => undefined);
    for (const id of ["a", "b", "c", "a", "d"]) await use(id);
    expect(handles.size).toBe(3);
    // "b" was the least recently used: it is opened again, the others are still open.
    const counts = await countResources(async () => {
      for (const id of ["a", "c", "d"]) await use(id);
    });
    expect(counts.get("FILEHANDLE") ?? 0).toBe(0);
    const again = await countResources(() => use("b"));
    expect(again.get("FILEHANDLE")).toBe(1);
    await handles.closeAll();
    expect(handles.size).toBe(0);
  });
});
