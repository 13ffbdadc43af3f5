import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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
});
