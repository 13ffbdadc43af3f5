import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileStore } from "june/chat";
import { createChatHandler } from "june/server";
import { durableChat, SECRET } from "../chat/__fixtures__/durable-chat.js";
import { listen, post } from "./__fixtures__/servers.js";
import { answer, assemble, collectChunks, sendUi, uiText, uiTransport, user } from "./__fixtures__/ui-client.js";
import { readSse, sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

const root = mkdtempSync(join(tmpdir(), "june-durable-http-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));


/** A server over the store at `dir` (a fresh process, as far as the store knows). */
async function server(dir: string, suspendAfterMs = 40) {
  const { chat } = durableChat({ store: fileStore(dir), durable: { suspendAfterMs } });
  return { chat, base: await listen(createChatHandler(chat)) };
}

/** Sends a turn on server A and reads its events until it suspends. */
async function suspendedTurn(dir: string) {
  const a = await server(dir);
  await a.chat.createSession({ id: "s1" });
  const first = await readSse(await post(`${a.base}/sessions/s1/turns`, { input: "ship the docs" }));
  const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
  const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
  expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
  return { turnId, requestId: request.id };
}

describe("durable turns over HTTP", () => {
  it("after a restart, GET /sessions/:id lists the suspended turn and its request (redacted); approve on any process resumes, then decides", async () => {
    const dir = join(root, "a");
    const { turnId, requestId } = await suspendedTurn(dir);
    const b = await server(dir);
    const listed = await fetch(`${b.base}/sessions/s1`);
    const text = await listed.text();
    expect(text).not.toContain(SECRET);
    const body = JSON.parse(text);
    expect(body.turns[0]).toMatchObject({ id: turnId, status: "suspended", resumable: true });
    expect(body.pendingApprovals).toEqual([expect.objectContaining({ turnId, id: requestId, toolName: "deploy", toolCallId: "call-deploy" })]);
    expect(body.pendingApprovals[0].input).toContain("prod");

    // Not live anywhere: the session's approve route resumes it and approves. There is no other route to approve by.
    expect((await post(`${b.base}/turns/${turnId}/approve`, { approvalId: requestId, sessionId: "s1" })).status).toBe(404);
    const approved = await post(`${b.base}/sessions/s1/turns/${turnId}/approve`, { approvalId: requestId });
    expect(approved.status).toBe(200);
    const rest = await readSse(await fetch(`${b.base}/turns/${turnId}/events`));
    expect(rest.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deployed: "live on prod".' } });
    const after = await (await fetch(`${b.base}/sessions/s1`)).json();
    expect(after.turns[0]).toMatchObject({ status: "completed" });
    expect(after.pendingApprovals).toBeUndefined();
    // Decided once.
    expect((await post(`${b.base}/sessions/s1/turns/${turnId}/approve`, { approvalId: requestId })).status).toBe(409);
  });

  it("approve on the process that suspended the turn resumes it there; its events are the resumed turn's", async () => {
    const dir = join(root, "c");
    const { chat } = durableChat({ store: fileStore(dir), durable: { suspendAfterMs: 40 } });
    const base = await listen(createChatHandler(chat));
    await chat.createSession({ id: "s1" });
    const first = await readSse(await post(`${base}/sessions/s1/turns`, { input: "ship the docs" }));
    const turnId = first.find((e) => e.event === "turn-start")!.data.turnId as string;
    const request = first.find((e) => e.event === "approval-request")!.data.request as { id: string };
    expect(first.at(-1)).toMatchObject({ event: "turn-end", data: { status: "suspended" } });
    expect((await post(`${base}/sessions/s1/turns/${turnId}/approve`, { approvalId: request.id })).status).toBe(200);
    const rest = await readSse(await fetch(`${base}/turns/${turnId}/events`));
    expect(rest.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deployed: "live on prod".' } });
  });

  it("POST /sessions/:id/turns/:turnId/resume answers with the resumed turn's events; deny through the session route", async () => {
    const dir = join(root, "b");
    const { turnId, requestId } = await suspendedTurn(dir);
    const b = await server(dir, Infinity);
    const response = await post(`${b.base}/sessions/s1/turns/${turnId}/resume`);
    expect(response.status).toBe(200);
    const seen: SseEvent[] = [];
    for await (const event of sseEvents(response)) {
      seen.push(event);
      if (event.event === "approval-request") {
        expect(event.data.request.id).toBe(requestId);
        const denied = await post(`${b.base}/sessions/s1/turns/${turnId}/deny`, { approvalId: requestId, reason: "no" });
        expect(denied.status).toBe(200);
      }
    }
    expect(seen.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: "Not deployed." } });
    // Resuming a turn that ended is a clear 409.
    const again = await post(`${b.base}/sessions/s1/turns/${turnId}/resume`);
    expect(again.status).toBe(409);
    expect((await again.json()).name).toBe("TurnNotResumableError");
  });

  it("/ui-chat in one process: the client's approval after the turn suspended resumes it, the tool runs once, and the same message goes on", async () => {
    const dir = join(root, "ui-chat");
    mkdirSync(dir, { recursive: true });
    const log = join(dir, "calls.log");
    const { chat } = durableChat({ store: fileStore(dir), log, durable: { suspendAfterMs: 40 } });
    const base = await listen(createChatHandler(chat));
    const transport = uiTransport(base);
    const first = await collectChunks(await sendUi(transport, "s-ui", [user("u1", "ship the docs")]));
    expect(first.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    const paused = await assemble(first);
    const session = await chat.openSession("s-ui");
    await expect.poll(async () => (await session.turns())[0]?.status).toBe("suspended");

    const answered = answer(paused, true);
    const rest = await collectChunks(await sendUi(transport, "s-ui", [user("u1", "ship the docs"), answered]));
    expect(rest[0]).toEqual({ type: "start", messageId: paused.id });
    const final = await assemble(rest, answered);
    expect(final.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({ state: "output-available" });
    expect(uiText(final)).toContain('Deployed: "live on prod".');
    expect(JSON.stringify(rest)).not.toContain(SECRET);
    expect((await session.turns())[0]).toMatchObject({ id: paused.id, status: "completed" });
    // Sent again: nothing runs again.
    await collectChunks(await sendUi(transport, "s-ui", [user("u1", "ship the docs"), answer(paused, true)]));
    expect(readFileSync(log, "utf8").split("\n").filter((line) => line.startsWith("deploy"))).toEqual([`deploy prod ${SECRET}`]);
  });
});
