import { spawn } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { tempRoot, turn } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-file-store-");
const freshDir = temp.dir;
afterAll(temp.cleanup);

describe("fileStore leases", () => {
  it("takes over a lock whose pid is dead, and refuses one whose pid lives", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const gone = spawn(process.execPath, ["-e", ""]);
    const deadPid = gone.pid!;
    await new Promise((resolve) => gone.once("exit", resolve));
    const lockPath = join(dir, "s.lock");
    const lock = (pid: number, extra: object = {}) =>
      writeFileSync(lockPath, JSON.stringify({ pid, host: hostname(), token: "old", acquiredAt: new Date().toISOString(), ...extra }));

    lock(deadPid);
    const lease = await store.acquireTurn("s");
    expect(JSON.parse(readFileSync(lockPath, "utf8"))).toMatchObject({ pid: process.pid, token: lease.token });
    await store.releaseTurn(lease);

    const alive = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      lock(alive.pid!);
      await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError", sessionId: "s" });
      // A live owner's lock is not removed by someone else's release.
      await store.releaseTurn({ sessionId: "s", token: "not-old" });
      expect(existsSync(lockPath)).toBe(true);
      // ...but an expired one is taken over.
      lock(alive.pid!, { expiresAt: new Date(Date.now() - 1000).toISOString() });
      await store.releaseTurn(await store.acquireTurn("s"));
    } finally {
      alive.kill("SIGKILL");
    }
  });

  it("an unreadable lock file is busy while fresh and taken over once old", async () => {
    const dir = freshDir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const lockPath = join(dir, "s.lock");
    writeFileSync(lockPath, "");
    await expect(store.acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath, old, old);
    await store.releaseTurn(await store.acquireTurn("s"));
  });

  it("a second store instance in the same process is refused too", async () => {
    const dir = freshDir();
    await fileStore(dir).createSession({ id: "s" });
    const lease = await fileStore(dir).acquireTurn("s");
    await expect(fileStore(dir).acquireTurn("s")).rejects.toMatchObject({ name: "SessionBusyError" });
    await fileStore(dir).releaseTurn(lease);
    await fileStore(dir).releaseTurn(await fileStore(dir).acquireTurn("s"));
  });
});

describe("fileStore fsync", () => {
  let spy: ReturnType<typeof vi.spyOn> | undefined;
  afterEach(() => spy?.mockRestore());

  async function countSyncs(fsync: boolean | undefined) {
    const dir = freshDir();
    const probe = await open(fileURLToPath(import.meta.url), "r");
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    spy = vi.spyOn(proto, "datasync");
    const store = fileStore(dir, fsync === undefined ? {} : { fsync });
    await store.createSession({ id: "s" });
    await store.append("s", turn("a").slice(0, 1), { expectedSeq: 1 });
    const afterPlain = spy.mock.calls.length;
    await store.append("s", turn("a").slice(1), { expectedSeq: 2, sync: true });
    const afterSync = spy.mock.calls.length;
    expect((await fileStore(dir).read("s")).length).toBe(3);
    spy.mockRestore();
    return { afterPlain, afterSync };
  }

  it("flushes appends made with sync: true, by default", async () => {
    expect(await countSyncs(undefined)).toEqual({ afterPlain: 0, afterSync: 1 });
    expect(await countSyncs(true)).toEqual({ afterPlain: 0, afterSync: 1 });
  });

  it("never flushes with fsync: false", async () => {
    expect(await countSyncs(false)).toEqual({ afterPlain: 0, afterSync: 0 });
  });
});
