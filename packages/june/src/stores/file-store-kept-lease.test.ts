import { existsSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild } from "../__fixtures__/line-child.js";
import { sessionWithTurns, tempRoot } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";
import type { ChatStore, NewJournalEntry, TurnLease } from "./types.js";

const temp = tempRoot("june-file-kept-lease-");
afterAll(() => {
  killLineChildren();
  temp.cleanup();
});

const start = (turnId: string): NewJournalEntry[] => [{ type: "turn-start", turnId, input: "hi", context: { builder: "full", turnIds: [] } }];
const end = (turnId: string): NewJournalEntry[] => [{ type: "turn-end", turnId, status: "completed", text: "hello" }];
const owner = (dir: string) => JSON.parse(readFileSync(join(dir, "s.lock"), "utf8")) as { pid: number; token: string };

/** One turn as the chat writes it: lease, turn-start, turn-end ending the lease, release. Returns the new seq. */
async function oneTurn(store: ChatStore, seq: number, turnId: string): Promise<{ seq: number; lease: TurnLease }> {
  const lease = await store.acquireTurn("s");
  await store.append("s", start(turnId), { expectedSeq: seq });
  await store.append("s", end(turnId), { expectedSeq: seq + 1, sync: true, endsLease: lease });
  await store.releaseTurn(lease);
  return { seq: seq + 2, lease };
}

const storeUrl = new URL("./index.ts", import.meta.url).href;
const contender = fileURLToPath(new URL("./__fixtures__/lease-contender.mjs", import.meta.url));

/** `lease-contender.mjs` in another process. */
function otherProcess(dir: string, keepLeaseMs?: number) {
  const { child, exited, next, send } = spawnLineChild(contender, [storeUrl, dir, "s", ...(keepLeaseMs === undefined ? [] : [String(keepLeaseMs)])]);
  return {
    child,
    exited,
    async ask(command: string): Promise<{ result: string; name?: string; message?: string }> {
      send(command);
      return JSON.parse(await next());
    },
    async ready() {
      expect(JSON.parse(await next())).toMatchObject({ result: "ready" });
    },
  };
}

describe("fileStore keeps a turn's lease for the session's next turn (keepLeaseMs)", () => {
  it("a turn's end keeps the lock, this process's; the next turn takes it again: the same file, the new lease's owner", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false, keepLeaseMs: 1_000 });
    let seq = await sessionWithTurns(store, "s", 0);
    const first = await oneTurn(store, seq, "a");
    seq = first.seq;
    // Kept: still on disk, this process's, the same file the turn took.
    const lock = statSync(join(dir, "s.lock"));
    expect(owner(dir)).toMatchObject({ pid: process.pid, token: first.lease.token });
    const second = await store.acquireTurn("s");
    expect(second.token).not.toBe(first.lease.token);
    expect(statSync(join(dir, "s.lock")).ino).toBe(lock.ino);
    expect(owner(dir)).toMatchObject({ pid: process.pid, token: second.token });
    // Held again by a turn: refused to a second taker of this store, as any held lease.
    await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    // The first turn's lease object no longer releases anything.
    await store.releaseTurn(first.lease);
    expect(owner(dir).token).toBe(second.token);
    await store.releaseTurn(second); // a plain release (no endsLease): gone at once
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    await store.close!();
  });

  it("is released when idle for keepLeaseMs, at close(), by deleteSession, and to another store of this process at once", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false, keepLeaseMs: 100 });
    let seq = await sessionWithTurns(store, "s", 0);
    seq = (await oneTurn(store, seq, "a")).seq;
    expect(existsSync(join(dir, "s.lock"))).toBe(true);
    await sleep(300);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);

    seq = (await oneTurn(store, seq, "b")).seq;
    await store.close!();
    expect(existsSync(join(dir, "s.lock"))).toBe(false);

    // Another store of this process (a second chat on the same directory) gets it at once, and appends.
    seq = (await oneTurn(store, seq, "c")).seq;
    const other = fileStore(dir, { fsync: false, keepLeaseMs: 1_000 });
    const theirs = await other.acquireTurn("s");
    expect(owner(dir).token).toBe(theirs.token);
    await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    await other.releaseTurn(theirs);
    seq = (await oneTurn(store, seq, "d")).seq;
    const [feedback] = await other.append("s", [{ type: "feedback", turnId: "d", score: 1 }], { expectedSeq: seq });
    expect(feedback!.seq).toBe(seq + 1);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);

    seq = (await oneTurn(store, seq + 1, "e")).seq;
    expect(await store.deleteSession("s")).toBe(true);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    await store.close!();
    await other.close!();
  });

  it("a kept lock removed by hand is not taken again blindly: the next turn takes a new one", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false, keepLeaseMs: 1_000 });
    let seq = await sessionWithTurns(store, "s", 0);
    seq = (await oneTurn(store, seq, "a")).seq;
    unlinkSync(join(dir, "s.lock"));
    const lease = await store.acquireTurn("s");
    expect(owner(dir)).toMatchObject({ pid: process.pid, token: lease.token });
    await store.releaseTurn(lease);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    await store.close!();
  });

  it("another process finds the session busy while the lease is kept, and takes it once released", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false, keepLeaseMs: 400 });
    let seq = await sessionWithTurns(store, "s", 0);
    const other = otherProcess(dir);
    await other.ready();
    seq = (await oneTurn(store, seq, "a")).seq;
    const busy = await other.ask("go");
    expect(busy).toMatchObject({ result: "busy", name: "SessionBusyError" });
    expect(busy.message).toContain(String(process.pid));
    // Its appends outside a lease wait for the lease to go, then go on.
    await sleep(600);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    expect(await other.ask("go")).toMatchObject({ result: "acquired" });
    expect(owner(dir).pid).toBe(other.child.pid);
    await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    expect(await other.ask("release")).toMatchObject({ result: "released" });
    other.child.stdin.end();
    await other.exited;
    seq = (await oneTurn(store, seq, "b")).seq;
    await store.close!();
  }, 30_000);

  it("a process that exits keeping a lease releases it; one killed with SIGKILL leaves it, and it is taken over", async () => {
    const dir = temp.dir();
    const store = fileStore(dir, { fsync: false, keepLeaseMs: 1_000 });
    await sessionWithTurns(store, "s", 0);

    const exiting = otherProcess(dir, 60_000);
    await exiting.ready();
    expect(await exiting.ask("turn")).toMatchObject({ result: "turned" });
    expect(owner(dir).pid).toBe(exiting.child.pid);
    await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    exiting.child.stdin.write("exit\n");
    await exiting.exited;
    expect(existsSync(join(dir, "s.lock"))).toBe(false);

    const killed = otherProcess(dir, 60_000);
    await killed.ready();
    expect(await killed.ask("turn")).toMatchObject({ result: "turned" });
    expect(await killed.ask("turn")).toMatchObject({ result: "turned" }); // the kept lease, taken again
    expect(owner(dir).pid).toBe(killed.child.pid);
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(owner(dir).pid).toBe(killed.child.pid);
    const lease = await store.acquireTurn("s");
    expect(owner(dir)).toMatchObject({ pid: process.pid, token: lease.token });
    await store.releaseTurn(lease);
    const turns = (await store.read("s")).filter((e) => e.type === "turn-end");
    expect(turns).toHaveLength(3);
    await store.close!();
  }, 30_000);
});
