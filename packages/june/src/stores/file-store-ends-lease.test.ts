import { existsSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";
import type { NewJournalEntry } from "./types.js";

const temp = tempRoot("june-file-ends-lease-");
afterAll(temp.cleanup);

const start = (turnId: string): NewJournalEntry[] => [{ type: "turn-start", turnId, input: "hi", context: { builder: "full", turnIds: [] } }];
const end = (turnId: string): NewJournalEntry[] => [{ type: "turn-end", turnId, status: "completed", text: "hello" }];

/** Records when flushes start and end (every FileHandle shares one prototype). */
async function watchFlushes(onStart: () => void): Promise<{ ended: number; restore: () => void }> {
  const probe = await open(join(temp.dir() + "-probe"), "w");
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  const original = proto.datasync;
  const watch = { ended: 0, restore: () => void (proto.datasync = original) };
  proto.datasync = async function (this: unknown) {
    onStart();
    await original.call(this);
    watch.ended++;
  };
  return watch;
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe("fileStore: a turn's end releases its lease (endsLease)", () => {
  it("releases the lock once the end is written, before its flush; the append resolves after the flush", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: true });
    const seq = await sessionWithTurns(store, "s", 1);
    const lease = await store.acquireTurn("s");
    await store.append("s", start("t"), { expectedSeq: seq });
    const lockAtFlush: boolean[] = [];
    const watch = await watchFlushes(() => lockAtFlush.push(existsSync(join(dir, "s.lock"))));
    restore = watch.restore;
    await store.append("s", end("t"), { expectedSeq: seq + 1, sync: true, endsLease: lease });
    expect(lockAtFlush).toEqual([false]);
    expect(watch.ended).toBe(1); // acknowledged only after its bytes were flushed
    expect(readFileSync(join(dir, "s.jsonl"), "utf8")).toContain('"type":"turn-end","at"');

    // Taken by another store (as another process) now; the holder's releaseTurn leaves that lock alone.
    const other = fileStore(dir, { fsync: false });
    const theirs = await other.acquireTurn("s");
    await store.releaseTurn(lease);
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ token: theirs.token });
    await other.releaseTurn(theirs);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    await store.close!();
    await other.close!();
  });

  it("keeps the lease when the append fails, and for another session's lease", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false });
    const seq = await sessionWithTurns(store, "s", 1);
    await sessionWithTurns(store, "r", 0);
    const lease = await store.acquireTurn("s");
    await expect(store.append("s", end("t0"), { expectedSeq: seq + 5, endsLease: lease })).rejects.toMatchObject({ name: "ConflictError" });
    expect(existsSync(join(dir, "s.lock"))).toBe(true);
    await store.append("r", [{ type: "rename", title: "r" }], { expectedSeq: 1, endsLease: lease });
    expect(existsSync(join(dir, "s.lock"))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ token: lease.token });
    await store.releaseTurn(lease);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    await store.close!();
  });

  it("a releaseTurn that comes while the end is still being appended waits for it and releases once", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: true });
    const seq = await sessionWithTurns(store, "s", 1);
    const lease = await store.acquireTurn("s");
    const ending = store.append("s", end("t0"), { expectedSeq: seq, sync: true, endsLease: lease });
    const released = store.releaseTurn(lease);
    await Promise.all([ending, released]);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    // The session is free, for this store and another.
    const next = await fileStore(dir).acquireTurn("s");
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ token: next.token });
    await store.close!();
  });
});
