import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileStore } from "june/chat";
import { createChatHandler } from "june/server";
import { durableChat, SECRET } from "../chat/__fixtures__/durable-chat.js";
import { listen, post } from "./__fixtures__/servers.js";
import { readSse, sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

const root = mkdtempSync(join(tmpdir(), "june-durable-cancel-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));


/** A server over the store at `dir` (a fresh process, as far as the store knows); tool runs logged to `log`. */
async function server(dir: string, suspendAfterMs = 40) {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "calls.log");
  const { chat } = durableChat({ store: fileStore(dir), log, durable: { suspendAfterMs } });
  const deploys = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((line) => line.startsWith("deploy")) : []);
  return { chat, base: await listen(createChatHandler(chat)), deploys };
}

/** Sends a turn and reads its events until it suspends. */
async function suspendedTurn(base: string) {
  const first = await readSse(await post(`${base}/sessions/s1/turns`, { input: "ship the docs" }));
  const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
  const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
  expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
  return { turnId, requestId: request.id };
}

describe("POST /sessions/:id/turns/:turnId/cancel", () => {
  it("ends a suspended turn after a restart: journaled canceled, its checkpoint gone, the tool never run", async () => {
    const dir = join(root, "restart");
    const a = await server(dir);
    await a.chat.createSession({ id: "s1" });
    const { turnId, requestId } = await suspendedTurn(a.base);
    const b = await server(dir);
    // One route per control: the turn-level one is gone.
    expect((await post(`${b.base}/turns/${turnId}/cancel`)).status).toBe(404);
    expect((await post(`${b.base}/sessions/other/turns/${turnId}/cancel`)).status).toBe(404);
    expect((await post(`${b.base}/sessions/s1/turns/nope/cancel`)).status).toBe(404);
    expect((await post(`${b.base}/sessions/s1/turns/${turnId}/cancel`, { why: 1 })).status).toBe(400);

    const canceled = await post(`${b.base}/sessions/s1/turns/${turnId}/cancel`);
    expect(canceled.status).toBe(200);
    expect(await canceled.json()).toEqual({ ok: true });
    const listed = await (await fetch(`${b.base}/sessions/s1`)).json();
    expect(listed.turns).toEqual([expect.objectContaining({ id: turnId, status: "canceled" })]);
    expect(listed.turns[0].resumable).toBeUndefined();
    expect(listed.pendingApprovals).toBeUndefined();
    expect(await fileStore(dir).getCheckpoint!("s1", turnId)).toBeUndefined();

    // Nothing left to decide or cancel, on either process; the tool never ran.
    expect((await post(`${a.base}/sessions/s1/turns/${turnId}/approve`, { approvalId: requestId })).status).toBe(409);
    const again = await post(`${b.base}/sessions/s1/turns/${turnId}/cancel`);
    expect(again.status).toBe(409);
    expect((await again.json()).name).toBe("TurnNotResumableError");
    expect(a.deploys()).toEqual([]);
    // The session takes new turns again.
    const next = await readSse(await post(`${b.base}/sessions/s1/turns`, { input: "Plan: nothing" }));
    expect(next.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed" } });
    expect(readFileSync(join(dir, "calls.log"), "utf8")).not.toContain(`deploy prod ${SECRET}`);
  });

  it("on the process that suspended the turn: its kept copy is replaced by the canceled record", async () => {
    const a = await server(join(root, "same"));
    await a.chat.createSession({ id: "s1" });
    const { turnId } = await suspendedTurn(a.base);
    expect((await post(`${a.base}/sessions/s1/turns/${turnId}/cancel`)).status).toBe(200);
    expect((await (await fetch(`${a.base}/sessions/s1`)).json()).turns[0]).toMatchObject({ id: turnId, status: "canceled" });
    // The suspended copy's events no longer stand for the turn.
    expect((await fetch(`${a.base}/turns/${turnId}/events`)).status).toBe(404);
  });

  it("cancels a turn that runs (waiting on its approval): its stream ends canceled", async () => {
    const a = await server(join(root, "live"), Infinity);
    await a.chat.createSession({ id: "s1" });
    const response = await post(`${a.base}/sessions/s1/turns`, { input: "ship the docs" });
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(response)) {
      seen.push(event);
      if (event.event === "approval-request") {
        const turnId = seen.find((e) => e.event === "turn-start")!.data.turnId as string;
        expect((await post(`${a.base}/sessions/s1/turns/${turnId}/cancel`)).status).toBe(200);
      }
    }
    expect(seen.at(-1)).toMatchObject({ event: "turn-end", data: { status: "canceled" } });
    expect(a.deploys()).toEqual([]);
  });
});

describe("a busy session over HTTP", () => {
  it("a 409 says the session is busy, never which process or host holds its lease (the library error keeps it)", async () => {
    const dir = join(root, "busy");
    const a = await server(dir);
    await a.chat.createSession({ id: "s1" });
    const { turnId, requestId } = await suspendedTurn(a.base);
    // Another holder of the session's lease (this process, through a second store, as another process would).
    const holder = fileStore(dir);
    const lease = await holder.acquireTurn("s1");
    try {
      const session = await a.chat.openSession("s1");
      await expect(session.cancel(turnId)).rejects.toThrow(new RegExp(`held by process ${process.pid}`));
      const refused = [
        await post(`${a.base}/sessions/s1/turns/${turnId}/cancel`),
        await post(`${a.base}/sessions/s1/turns/${turnId}/resume`),
        await post(`${a.base}/sessions/s1/turns/${turnId}/approve`, { approvalId: requestId }),
      ];
      for (const response of refused) {
        expect(response.status).toBe(409);
        const text = await response.text();
        const body = JSON.parse(text);
        expect(body).toMatchObject({ name: "SessionBusyError" });
        expect(body.error).toMatch(/^Session "s1" is busy/);
        expect(text).not.toContain(String(process.pid));
        expect(text).not.toContain(hostname());
        expect(text).not.toMatch(/held by|process/);
      }
    } finally {
      await holder.releaseTurn(lease);
    }
    expect(a.deploys()).toEqual([]);

    // A new turn the held lease refuses fails in its stream, which names no holder either.
    await a.chat.createSession({ id: "s2" });
    const other = await holder.acquireTurn("s2");
    try {
      const failed = await readSse(await post(`${a.base}/sessions/s2/turns`, { input: "Plan: anything" }));
      expect(failed.at(-1)).toMatchObject({ event: "turn-end", data: { status: "failed", error: { name: "SessionBusyError" } } });
      const error = JSON.stringify(failed.at(-1)!.data.error);
      expect(error).toContain("is busy");
      expect(error).not.toContain(String(process.pid));
      expect(error).not.toMatch(/held by|process/);
    } finally {
      await holder.releaseTurn(other);
    }
  });
});
