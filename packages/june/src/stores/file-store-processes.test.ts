import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { killLineChildren, spawnLineChild, type LineChild } from "../__fixtures__/line-child.js";
import { fileStore } from "./file-store.js";
import type { JournalEntry } from "./types.js";

// Real processes: each child runs a fixture script that imports the store's source through tsx.
const storeUrl = new URL("./index.ts", import.meta.url).href;
const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

const root = mkdtempSync(join(tmpdir(), "june-file-procs-"));
afterAll(() => {
  killLineChildren();
  rmSync(root, { recursive: true, force: true });
});

function run(script: string, args: string[]): LineChild {
  return spawnLineChild(fixture(script), [storeUrl, ...args]);
}

function checkContiguous(entries: JournalEntry[]) {
  expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
  expect(entries[0].type).toBe("session");
}

describe("fileStore across processes", () => {
  it("a writer killed with SIGKILL mid-way leaves a readable journal; the next append works", async () => {
    const dir = join(root, "killed");
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const writer = run("append-loop.mjs", [dir, "s"]);
    let printed = 0;
    while (printed < 30) printed = Number(await writer.next());
    writer.child.kill("SIGKILL");
    await writer.exited;

    const entries = await store.read("s");
    checkContiguous(entries);
    expect(entries.length).toBeGreaterThanOrEqual(printed);
    // Batches are all or nothing: every turn-start is followed by its turn-end.
    expect((entries.length - 1) % 2).toBe(0);
    for (let i = 1; i < entries.length; i += 2) {
      expect(entries[i].type).toBe("turn-start");
      expect(entries[i + 1]).toMatchObject({ type: "turn-end", turnId: (entries[i] as { turnId: string }).turnId });
    }
    const last = entries[entries.length - 1].seq;
    // The killed writer may have left its journal lock behind: it is taken over (its pid is dead).
    const lastTurn = (entries[entries.length - 1] as { turnId: string }).turnId;
    const [written] = await store.append("s", [{ type: "feedback", turnId: lastTurn, score: 1 }], {
      expectedSeq: last,
      sync: true,
    });
    expect(written.seq).toBe(last + 1);
    const text = readFileSync(join(dir, "s.jsonl"), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual(lines.map((_, i) => i + 1));
    checkContiguous(await store.read("s"));
    expect(existsSync(join(dir, "s.jsonl.append.lock"))).toBe(false);
  });

  it("two processes contend for one lease: exactly one wins; a killed owner's lease is taken over", async () => {
    const dir = join(root, "lease");
    const store = fileStore(dir);
    await store.createSession({ id: "s" });
    const a = run("lease-contender.mjs", [dir, "s"]);
    const b = run("lease-contender.mjs", [dir, "s"]);
    expect(await a.next()).toContain("ready");
    expect(await b.next()).toContain("ready");
    a.child.stdin.write("go\n");
    b.child.stdin.write("go\n");
    const results = [JSON.parse(await a.next()), JSON.parse(await b.next())];
    expect(results.map((r) => r.result).sort()).toEqual(["acquired", "busy"]);
    expect(results.find((r) => r.result === "busy").name).toBe("SessionBusyError");
    const [winner, loser] = results[0].result === "acquired" ? [a, b] : [b, a];

    // The holder lives: this process is refused too, naming the holder's pid.
    await expect(store.acquireTurn("s")).rejects.toThrow(String(winner.child.pid));

    // Released: the other process gets it.
    winner.child.stdin.write("release\n");
    expect(JSON.parse(await winner.next()).result).toBe("released");
    loser.child.stdin.write("go\n");
    expect(JSON.parse(await loser.next()).result).toBe("acquired");

    // Its holder dies without releasing: the lock file stays, and is taken over.
    loser.child.kill("SIGKILL");
    await loser.exited;
    expect(existsSync(join(dir, "s.lock"))).toBe(true);
    const lease = await store.acquireTurn("s");
    expect(JSON.parse(readFileSync(join(dir, "s.lock"), "utf8"))).toMatchObject({
      pid: process.pid,
      token: lease.token,
    });
    winner.child.stdin.write("go\n");
    expect(JSON.parse(await winner.next())).toMatchObject({ result: "busy", name: "SessionBusyError" });
    await store.releaseTurn(lease);
    expect(existsSync(join(dir, "s.lock"))).toBe(false);
    winner.child.stdin.end();
    await winner.exited;
  });

  it("two processes appending to one session with conflict retries never lose or duplicate entries", async () => {
    const dir = join(root, "appenders");
    const store = fileStore(dir, { fsync: false });
    await store.createSession({ id: "s" });
    const count = 40;
    const writers = [run("append-contender.mjs", [dir, "s", String(count)]), run("append-contender.mjs", [dir, "s", String(count)])];
    const reports = await Promise.all(writers.map(async (w) => JSON.parse(await w.next())));
    await Promise.all(writers.map((w) => w.exited));
    expect(reports.map((r) => r.appended)).toEqual([count, count]);
    const entries = await store.read("s");
    checkContiguous(entries);
    expect(entries.length).toBe(1 + 2 * 2 * count);
    const turnIds = entries.filter((e) => e.type === "turn-start").map((e) => (e as { turnId: string }).turnId);
    expect(new Set(turnIds).size).toBe(2 * count);
    // Each batch stayed together.
    for (let i = 1; i < entries.length; i += 2) {
      expect((entries[i + 1] as { turnId: string }).turnId).toBe((entries[i] as { turnId: string }).turnId);
    }
    expect((await store.getSession("s"))?.turnCount).toBe(2 * count);
  });
});
