import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CheckpointUnreadableError } from "./errors.js";
import { fileStore } from "./file-store.js";

const root = mkdtempSync(join(tmpdir(), "june-file-checkpoints-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

describe("fileStore checkpoints", () => {
  it("writes each checkpoint through a temporary file renamed into place, readable by its owner only", async () => {
    const dir = join(root, `c${n++}`);
    const store = fileStore(dir);
    await store.createSession({ id: "s1" });
    await store.putCheckpoint!("s1", "t1", "one");
    await store.putCheckpoint!("s1", "t1", "two");
    const files = readdirSync(join(dir, "s1.checkpoints"));
    expect(files).toEqual(["t1.checkpoint.json"]);
    expect(statSync(join(dir, "s1.checkpoints", files[0]!)).mode & 0o777).toBe(0o600);
    expect((await store.getCheckpoint!("s1", "t1"))?.data).toBe("two");
    // Sessions are still listed as before: the folder of checkpoints is not a session.
    expect((await store.listSessions()).map((s) => s.id)).toEqual(["s1"]);
  });

  it("a torn temporary file left by a crash is ignored; a damaged checkpoint file is a clear error naming the turn", async () => {
    const dir = join(root, `c${n++}`);
    const store = fileStore(dir);
    await store.createSession({ id: "s1" });
    await store.putCheckpoint!("s1", "t1", JSON.stringify({ whole: true }));
    // A crash mid-write leaves only a temporary file: the checkpoint is the last whole one.
    writeFileSync(join(dir, "s1.checkpoints", ".t1.0000.tmp"), '{"turnId":"t1","data":"{\\"who');
    expect((await store.getCheckpoint!("s1", "t1"))?.data).toBe(JSON.stringify({ whole: true }));
    expect((await store.listCheckpoints!("s1")).map((c) => c.turnId)).toEqual(["t1"]);
    // A checkpoint file cut short by something else (a disk fault, a hand edit).
    writeFileSync(join(dir, "s1.checkpoints", "t2.checkpoint.json"), '{"turnId":"t2","da');
    const error = await store.getCheckpoint!("s1", "t2").catch((e: unknown) => e);
    expect(CheckpointUnreadableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('turn "t2"');
    expect((error as Error).message).toContain("can be canceled");
    // It can still be deleted (the turn canceled).
    expect(await store.deleteCheckpoint!("s1", "t2")).toBe(true);
  });

  it("append with deleteCheckpoint removes the file after the turn-end line; deleteSession removes the folder", async () => {
    const dir = join(root, `c${n++}`);
    const store = fileStore(dir);
    await store.createSession({ id: "s1" });
    await store.append("s1", [{ type: "turn-start", turnId: "t1", input: "x", context: { builder: "full", turnIds: [] } }], { expectedSeq: 1 });
    await store.putCheckpoint!("s1", "t1", "secret input");
    await store.append("s1", [{ type: "turn-end", turnId: "t1", status: "canceled" }], { expectedSeq: 2, sync: true, deleteCheckpoint: "t1" });
    expect(readdirSync(join(dir, "s1.checkpoints"))).toEqual([]);
    await store.putCheckpoint!("s1", "t2", "x");
    await store.deleteSession("s1");
    expect(readdirSync(dir).filter((name) => name.startsWith("s1"))).toEqual([]);
  });

  it("what a crash left goes when a store opens, before any checkpoint is read: temporary files of gone writers, checkpoints of ended turns and of deleted sessions", async () => {
    const dir = join(root, `c${n++}`);
    const first = fileStore(dir);
    await first.createSession({ id: "s1" });
    await first.append("s1", [{ type: "turn-start", turnId: "t1", input: "x", context: { builder: "full", turnIds: [] } }], { expectedSeq: 1 });
    await first.putCheckpoint!("s1", "t1", "apiKey=sk-left-behind");
    await first.putCheckpoint!("s1", "t2", "still waiting");
    // Killed between the turn-end line and the delete: the end is journaled, the checkpoint still there.
    await first.append("s1", [{ type: "turn-end", turnId: "t1", status: "completed", text: "ok" }], { expectedSeq: 2, sync: true });
    await first.close!();
    const checkpoints = join(dir, "s1.checkpoints");
    const uuid = "0b7e8c3a-5d2f-4c1e-9a8b-7f6e5d4c3b2a";
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    const files = {
      dead: `.t2.${dead}.${uuid}.tmp`,
      live: `.t2.${process.pid}.${uuid}.tmp`,
      olderJune: `.t2.${uuid}.tmp`,
      stale: `.t3.${process.pid}.${uuid.replace("0b", "0c")}.tmp`,
    };
    for (const name of Object.values(files)) writeFileSync(join(checkpoints, name), '{"turnId":"t2","data":"password=hunter2');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(checkpoints, files.stale), hourAgo, hourAgo);
    // A session deleted by a process killed before its checkpoints went.
    mkdirSync(join(dir, "gone.checkpoints"));
    writeFileSync(join(dir, "gone.checkpoints", "t9.checkpoint.json"), "{}");

    const store = fileStore(dir);
    expect((await store.listCheckpoints!("s1")).map((c) => c.turnId)).toEqual(["t2"]);
    // This process writes its temporary file now, and an older June's may be mid-write: both stay.
    expect(readdirSync(checkpoints).sort()).toEqual([files.olderJune, files.live, "t2.checkpoint.json"].sort());
    expect(readdirSync(dir).filter((name) => name.startsWith("gone"))).toEqual([]);
    // The next write sweeps too (what died since the store opened).
    writeFileSync(join(checkpoints, files.dead), "x");
    await store.putCheckpoint!("s1", "t2", "again");
    expect(readdirSync(checkpoints)).not.toContain(files.dead);
    await store.close!();
  });

  it("a damaged checkpoint file is listed with why, the others as they are", async () => {
    const dir = join(root, `c${n++}`);
    const store = fileStore(dir);
    await store.createSession({ id: "s1" });
    await store.putCheckpoint!("s1", "t1", "whole");
    writeFileSync(join(dir, "s1.checkpoints", "t2.checkpoint.json"), '{"turnId":"t2","da');
    const listed = await store.listCheckpoints!("s1");
    expect(listed.map(({ turnId, data, unreadable }) => ({ turnId, data, unreadable })).sort((a, b) => a.turnId.localeCompare(b.turnId))).toEqual([
      { turnId: "t1", data: "whole", unreadable: undefined },
      { turnId: "t2", data: "", unreadable: "its file is not valid JSON (damaged)" },
    ]);
  });
});
