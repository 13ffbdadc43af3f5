import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CheckpointMismatchError } from "june";
import { CheckpointUnreadableError, createChat, fileStore, memoryStore, SessionBusyError, TurnNotResumableError, TurnSuspendedError, type ChatStore, type Turn } from "june/chat";
import { durableChat, SECRET } from "./__fixtures__/durable-chat.js";

const root = mkdtempSync(join(tmpdir(), "june-durable-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);

/** Every byte under `dir`, as text. */
function everything(dir: string): string {
  let out = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return out;
}

async function firstRequest(turn: Turn) {
  for await (const event of turn) if (event.type === "approval-request") return event.request;
  throw new Error("the turn ended without asking");
}

describe("durable turns", () => {
  it("suspends after suspendAfterMs; another chat over the store lists, resumes and approves: the tool runs once, finished steps are not asked again", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const store = fileStore(join(dir, "chat"));
    const one = durableChat({ store, log, durable: { suspendAfterMs: 50 } });
    const session = await one.chat.createSession({ id: "s1" });
    const turn = session.send("ship the docs");
    const request = await firstRequest(turn);
    expect(request).toMatchObject({ toolName: "deploy", input: { env: "prod", token: SECRET } });
    const error = await turn.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnSuspendedError);
    expect(error).toMatchObject({ sessionId: "s1", turnId: turn.id, requests: [{ id: request.id, toolName: "deploy" }] });
    expect(turn.status).toBe("suspended");
    const entries = await store.read("s1");
    expect(entries.at(-1)).toMatchObject({ type: "turn-suspend", turnId: turn.id, requests: [{ id: request.id, toolName: "deploy" }] });
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(lines(log)).toEqual(["model plan", "model work-ask"]);
    // One unfinished turn per session.
    expect(() => session.send("another")).toThrow(SessionBusyError);
    expect(() => session.regenerate()).toThrow(SessionBusyError);

    // A fresh chat (another process, as far as the store knows).
    const two = durableChat({ store: fileStore(join(dir, "chat")), log });
    const again = await two.chat.openSession("s1");
    expect((await again.turns())[0]).toMatchObject({ id: turn.id, status: "suspended", resumable: true });
    expect(await again.pendingApprovals()).toEqual([
      { turnId: turn.id, id: request.id, stepId: "work", toolName: "deploy", toolCallId: "call-deploy", input: { env: "prod", token: SECRET } },
    ]);
    const live = await again.resume(turn.id);
    expect(live.id).toBe(turn.id);
    expect(live.requests.map((r) => r.id)).toEqual([request.id]);
    expect(again.currentTurn).toBe(live);
    expect((await again.turns())[0]!.status).toBe("running");
    const deltas: string[] = [];
    const consumed = (async () => {
      for await (const event of live) if (event.type === "text-delta") deltas.push(event.text);
    })();
    expect(live.approve(request.id)).toBe(true);
    const result = await live.result;
    await consumed;
    expect(result.text).toBe('Deployed: "live on prod".');
    expect(deltas.join("")).toBe(result.text);
    expect(lines(log)).toEqual(["model plan", "model work-ask", `deploy prod ${SECRET}`, "model work-answer", "model reply"]);
    expect((await again.turns())[0]).toMatchObject({ status: "completed", text: result.text });
    expect((await again.turns())[0]!.resumable).toBeUndefined();
    expect(await store.listCheckpoints!("s1")).toEqual([]);
    expect(await again.pendingApprovals()).toEqual([]);
    // After the turn: no checkpoint and no byte of the tool's input anywhere in the store.
    expect(everything(join(dir, "chat"))).not.toContain(SECRET);
    // The session takes new turns again.
    const next = again.send("and now?");
    await firstRequest(next);
    next.cancel();
    await next.result.catch(() => {});
  });

  it("deny on a resumed turn: the tool never runs, the reply says so", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const store = memoryStore();
    const { chat } = durableChat({ store, log, durable: { suspendAfterMs: 20 } });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    const request = await firstRequest(turn);
    await turn.result.catch(() => {});
    const live = await session.resume(turn.id);
    expect(live.deny(request.id, "not today")).toBe(true);
    expect((await live.result).text).toBe("Not deployed.");
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toEqual([]);
    const approvals = (await store.read("s1")).filter((e) => e.type === "approval");
    expect(approvals).toEqual([expect.objectContaining({ requestId: request.id, approved: false, reason: "not today" })]);
  });

  it("two resumes at once: one wins, the other gets SessionBusyError; the tool runs once", async () => {
    const dir = fresh();
    const log = join(dir, "calls.log");
    const path = join(dir, "chat");
    const { chat } = durableChat({ store: fileStore(path), log, durable: { suspendAfterMs: 20 } });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    await firstRequest(turn);
    await turn.result.catch(() => {});
    const a = await durableChat({ store: fileStore(path), log }).chat.openSession("s1");
    const b = await durableChat({ store: fileStore(path), log }).chat.openSession("s1");
    const settled = await Promise.allSettled([a.resume(turn.id), b.resume(turn.id)]);
    const won = settled.filter((s): s is PromiseFulfilledResult<Turn> => s.status === "fulfilled");
    const lost = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(SessionBusyError);
    const live = won[0]!.value;
    live.approve(live.requests[0]!.id);
    await live.result;
    expect(lines(log).filter((l) => l.startsWith("deploy"))).toHaveLength(1);
  });

  it("session.cancel ends a suspended turn without running anything and deletes its checkpoint", async () => {
    const store = memoryStore();
    const { chat } = durableChat({ store, durable: { suspendAfterMs: 10 } });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    await firstRequest(turn);
    await turn.result.catch(() => {});
    await session.cancel(turn.id);
    expect((await session.turns())[0]).toMatchObject({ status: "canceled" });
    expect(await store.listCheckpoints!("s1")).toEqual([]);
    await expect(session.resume(turn.id)).rejects.toBeInstanceOf(TurnNotResumableError);
    await expect(session.cancel(turn.id)).rejects.toBeInstanceOf(TurnNotResumableError);
  });

  it("with encryptionKey the checkpoint on disk holds no plaintext input; another key cannot read it, and the turn can still be canceled", async () => {
    const dir = fresh();
    const key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    const { chat } = durableChat({ store: fileStore(dir), durable: { suspendAfterMs: 20, encryptionKey: key } });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    await firstRequest(turn);
    await turn.result.catch(() => {});
    const disk = everything(dir);
    expect(disk).toContain("june-aes-256-gcm:v1:");
    expect(disk).not.toContain(SECRET);
    expect(disk).not.toContain("call-deploy");
    expect((await session.pendingApprovals())[0]!.input).toEqual({ env: "prod", token: SECRET });

    const other = durableChat({ store: fileStore(dir), durable: { encryptionKey: Buffer.alloc(32, 7) } });
    const elsewhere = await other.chat.openSession("s1");
    const error = await elsewhere.resume(turn.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointUnreadableError);
    expect((error as Error).message).toContain(turn.id);
    await elsewhere.cancel(turn.id);
    expect((await elsewhere.turns())[0]!.status).toBe("canceled");
    expect(everything(dir)).not.toContain("june-aes-256-gcm");
  });

  it("a workflow that lost the waiting step: resume rejects with CheckpointMismatchError, the turn stays and can be canceled", async () => {
    const store = memoryStore();
    const { chat } = durableChat({ store, durable: { suspendAfterMs: 10 } });
    const session = await chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    await firstRequest(turn);
    await turn.result.catch(() => {});
    const changed = await durableChat({ store, withoutWork: true }).chat.openSession("s1");
    await expect(changed.resume(turn.id)).rejects.toBeInstanceOf(CheckpointMismatchError);
    expect((await changed.turns())[0]).toMatchObject({ status: "suspended", resumable: true });
    expect(await store.getCheckpoint!("s1", turn.id)).toBeDefined();
    await changed.cancel(turn.id);
    expect(await store.getCheckpoint!("s1", turn.id)).toBeUndefined();
  });

  it("refuses bad settings and stores that keep no checkpoints", () => {
    const store = memoryStore();
    expect(() => durableChat({ store, durable: { suspendAfterMs: -1 } })).toThrow(/suspendAfterMs/);
    expect(() => durableChat({ store, durable: { encryptionKey: "short" } })).toThrow(/32 bytes/);
    const bare: ChatStore = { ...store, putCheckpoint: undefined, getCheckpoint: undefined, listCheckpoints: undefined, deleteCheckpoint: undefined };
    expect(() => durableChat({ store: bare })).toThrow(/keeps checkpoints/);
    const responder = { respond: () => ({ result: Promise.resolve({ text: "" }) }), durable: true as const };
    expect(() => createChat({ responder, store })).toThrow(/resume\(\)/);
  });
});
