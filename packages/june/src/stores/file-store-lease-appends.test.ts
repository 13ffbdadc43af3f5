import { existsSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { sessionWithTurns, tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-file-lease-appends-");
afterAll(temp.cleanup);

/** A lock file as another live process on this machine would hold it (our parent: alive while we run). */
function foreignLock(path: string): void {
  writeFileSync(path, JSON.stringify({ pid: process.ppid, host: hostname(), token: "theirs", acquiredAt: new Date().toISOString() }));
}

describe("fileStore appends under a turn lease", () => {
  it("the lease's holder appends without a journal lock of its own", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false });
    let seq = await sessionWithTurns(store, "s", 1);
    const lease = await store.acquireTurn("s");
    // A journal lock someone else seems to hold now: an append that needed it would wait 10 s, then fail.
    foreignLock(join(dir, "s.jsonl.append.lock"));
    for (let i = 0; i < 3; i++) seq = (await store.append("s", turn(`k${i}`), { expectedSeq: seq })).at(-1)!.seq;
    expect(seq).toBe(9);
    await store.releaseTurn(lease);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
  });

  it("a writer without the lease (another store, as another process) waits for the lease to go, then appends after it", async () => {
    const dir = temp.dir();
    const holder = fileStore(dir, { fsync: false });
    const other = fileStore(dir, { fsync: false });
    const seq = await sessionWithTurns(holder, "s", 1);
    const lease = await holder.acquireTurn("s");
    let otherDone = false;
    const feedback = other.append("s", [{ type: "feedback", turnId: "t0", score: 1 }], { expectedSeq: seq }).then((written) => {
      otherDone = true;
      return written;
    });
    await sleep(50);
    expect(otherDone).toBe(false);
    // The holder's turn goes on meanwhile; the waiting writer then sees that the journal moved.
    const [, end] = await holder.append("s", turn("k"), { expectedSeq: seq });
    await holder.releaseTurn(lease);
    await expect(feedback).rejects.toMatchObject({ name: "ConflictError" });
    const [written] = await other.append("s", [{ type: "feedback", turnId: "t0", score: 1 }], { expectedSeq: end!.seq });
    expect(written!.seq).toBe(end!.seq + 1);
    expect((await fileStore(dir).read("s")).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a lease taken while another writer holds the journal lock waits for that writer", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false });
    await sessionWithTurns(store, "s", 1);
    const lockPath = join(dir, "s.jsonl.append.lock");
    foreignLock(lockPath);
    let acquired = false;
    const taking = store.acquireTurn("s").then((lease) => {
      acquired = true;
      return lease;
    });
    await sleep(50);
    expect(acquired).toBe(false);
    // The other writer is done.
    unlinkSync(lockPath);
    const lease = await taking;
    expect(existsSync(lockPath)).toBe(false);
    await store.releaseTurn(lease);
  });

  it("a writer without the lease appends at once when this very store holds it", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false });
    const seq = await sessionWithTurns(store, "s", 1);
    const lease = await store.acquireTurn("s");
    const [written] = await store.append("s", [{ type: "feedback", turnId: "t0", score: 1 }], { expectedSeq: seq });
    expect(written!.seq).toBe(seq + 1);
    await store.releaseTurn(lease);
  });
});
