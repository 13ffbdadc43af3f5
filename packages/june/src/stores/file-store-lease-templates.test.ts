import { spawn } from "node:child_process";
import { existsSync, linkSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempRoot } from "./__fixtures__/file-store-helpers.js";
import { fileStore } from "./file-store.js";

const temp = tempRoot("june-lease-templates-");
afterAll(temp.cleanup);

const templatesIn = (dir: string) => readdirSync(dir).filter((name) => name.startsWith(".lease-"));

async function deadPid(): Promise<number> {
  const gone = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => gone.once("exit", resolve));
  return gone.pid!;
}

describe("fileStore lease templates", () => {
  it("links one template as each lock in turn: the lock holds the lease's owner, the template outlives it", async () => {
    const dir = temp.dir();
    const store = fileStore(dir);
    for (const id of ["a", "b"]) await store.createSession({ id });
    const a = await store.acquireTurn("a");
    const aLock = statSync(join(dir, "a.lock"));
    expect(JSON.parse(readFileSync(join(dir, "a.lock"), "utf8"))).toMatchObject({ pid: process.pid, token: a.token });
    await store.releaseTurn(a);
    expect(existsSync(join(dir, "a.lock"))).toBe(false);

    const b = await store.acquireTurn("b");
    expect(statSync(join(dir, "b.lock")).ino).toBe(aLock.ino);
    expect(JSON.parse(readFileSync(join(dir, "b.lock"), "utf8"))).toMatchObject({ pid: process.pid, token: b.token });
    // Two leases at once: two templates.
    const a2 = await store.acquireTurn("a");
    expect(statSync(join(dir, "a.lock")).ino).not.toBe(aLock.ino);
    expect(templatesIn(dir)).toHaveLength(2);
    await store.releaseTurn(a2);
    await store.releaseTurn(b);

    await store.close!();
    expect(templatesIn(dir)).toEqual([]);
    // Still usable after close.
    await store.releaseTurn(await store.acquireTurn("a"));
  });

  it("does not rewrite a template that still has another name (a lock this store could not remove itself)", async () => {
    const dir = temp.dir();
    const store = fileStore(dir);
    for (const id of ["a", "b"]) await store.createSession({ id });
    const a = await store.acquireTurn("a");
    const aLock = statSync(join(dir, "a.lock"));
    const aOwner = readFileSync(join(dir, "a.lock"), "utf8");
    // A contender's rename aside, caught half-way: the lock is no longer at its path, the template has two names.
    const aside = join(dir, "a.lock.contender.gone");
    renameSync(join(dir, "a.lock"), aside);
    await store.releaseTurn(a); // the lock is not where it was: left alone
    const b = await store.acquireTurn("b");
    expect(statSync(join(dir, "b.lock")).ino).not.toBe(aLock.ino);
    expect(readFileSync(aside, "utf8")).toBe(aOwner);
    await store.releaseTurn(b);

    // A lock this store removed itself: its template is linked again, as it is.
    const b2 = await store.acquireTurn("b");
    const bLock = statSync(join(dir, "b.lock"));
    await store.releaseTurn(b2);
    const a2 = await store.acquireTurn("a");
    expect(statSync(join(dir, "a.lock")).ino).toBe(bLock.ino);
    expect(JSON.parse(readFileSync(join(dir, "a.lock"), "utf8"))).toMatchObject({ pid: process.pid, token: a2.token });
    await store.releaseTurn(a2);
    await store.close!();
  });

  it("removes the templates a killed process left, and keeps a live process's", async () => {
    const dir = temp.dir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const dead = `.lease-${await deadPid()}-0badcafe-0`;
    const live = `.lease-${process.ppid}-0badcafe-0`;
    const earlier = `.lease-${process.pid}-0badcafe-0`; // this pid, written before this process started
    for (const name of [dead, live, earlier]) writeFileSync(join(dir, name), "{}");
    const old = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(join(dir, earlier), old, old);

    await store.releaseTurn(await store.acquireTurn("s"));
    await store.close!(); // after the sweep
    const left = templatesIn(dir);
    expect(left).toContain(live);
    expect(left).not.toContain(dead);
    expect(left).not.toContain(earlier);
  });

  it("a lock a dead process left linked to its template is taken over", async () => {
    const dir = temp.dir();
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const pid = await deadPid();
    const template = join(dir, `.lease-${pid}-0badcafe-0`);
    writeFileSync(template, JSON.stringify({ pid, host: hostname(), token: "old", acquiredAt: new Date().toISOString() }));
    linkSync(template, join(dir, "s.lock"));
    const lease = await store.acquireTurn("s");
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({ token: lease.token });
    await store.releaseTurn(lease);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
  });
});
