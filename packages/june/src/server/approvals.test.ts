import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { describe, expect, it } from "vitest";
import { approvalResponder, SECRETS } from "./__fixtures__/approval-responder.js";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

/** Every response body the test read, to check none holds a credential. */
const bodies: string[] = [];
async function text(response: Response | Promise<Response>): Promise<string> {
  const body = await (await response).text();
  bodies.push(body);
  return body;
}

async function setup(calls = 1) {
  const chat = createChat({ responder: approvalResponder({ calls }) });
  const base = await listen(createChatHandler(chat));
  const session = await chat.createSession();
  return { chat, base, sessionId: session.id };
}

/**
 * Starts a turn and reads its events; `onApproval` answers each approval request over HTTP. Returns every
 * event and the raw SSE text.
 */
async function streamTurn(base: string, sessionId: string, onApproval: (turnId: string, request: any) => Promise<void>) {
  const response = await post(`${base}/sessions/${sessionId}/turns`, { input: "Deploy it" });
  expect(response.status).toBe(200);
  const [forEvents, forText] = response.body!.tee();
  const raw = new Response(forText).text();
  const events: SseEvent[] = [];
  let turnId = "";
  for await (const event of sseEvents(new Response(forEvents))) {
    events.push(event);
    if (event.event === "turn-start") turnId = event.data.turnId;
    if (event.event === "approval-request") await onApproval(turnId, event.data.request);
  }
  const body = await raw;
  bodies.push(body);
  return { events, turnId, raw: body };
}

describe("approvals over HTTP", () => {
  it("approves a tool call from its approval-request event", async () => {
    const { base, sessionId, chat } = await setup();
    const { events, turnId } = await streamTurn(base, sessionId, async (turnId, request) => {
      const ok = await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.id });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ ok: true });
      // Decided once: a second decision is refused.
      const again = await post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.id });
      expect(again.status).toBe(409);
      bodies.push(await again.text());
    });

    const types = events.map((e) => e.event);
    // The approval-request follows the run-update that shows its call pending.
    const requestIndex = types.indexOf("approval-request");
    expect(types[requestIndex - 1]).toBe("run-update");
    const pendingRows = events[requestIndex - 1].data.rows;
    const tool = pendingRows[0].children[0];
    expect(tool).toMatchObject({ kind: "tool", toolName: "deploy", status: "pending", title: "deploy needs approval" });
    expect(tool.children[0]).toMatchObject({ kind: "approval", approvalId: "approval-0-0", status: "pending" });

    const request = events[requestIndex].data.request;
    expect(request).toMatchObject({ id: "approval-0-0", toolName: "deploy", toolCallId: "call-0-0", stepId: "reply" });
    expect(typeof request.input).toBe("string");
    expect(request.input).toContain("staging");
    expect(request.input).toContain("[redacted]");

    const end = events.at(-1)!.data;
    expect(end).toMatchObject({ type: "turn-end", status: "completed", text: "Checking. Deployed 1. Done." });
    const doneRows = events.filter((e) => e.event === "run-update").at(-1)!.data.rows;
    expect(doneRows[0].children[0]).toMatchObject({ kind: "tool", status: "done", approval: { state: "approved" } });
    expect(doneRows[0].children[0].children).toEqual([]);

    const [turn] = await (await chat.openSession(sessionId)).turns();
    expect(turn).toMatchObject({ id: turnId, status: "completed", text: "Checking. Deployed 1. Done." });
  });

  it("denies a tool call with a reason", async () => {
    const { base, sessionId } = await setup();
    const { events } = await streamTurn(base, sessionId, async (turnId, request) => {
      const denied = await post(`${base}/sessions/${sessionId}/turns/${turnId}/deny`, { approvalId: request.id, reason: "not today" });
      expect(denied.status).toBe(200);
    });
    expect(events.at(-1)!.data).toMatchObject({ status: "completed", text: "Checking. Not deployed: not today. Done." });
    const rows = events.filter((e) => e.event === "run-update").at(-1)!.data.rows;
    expect(rows[0].children[0]).toMatchObject({ title: "deploy denied", approval: { state: "denied", reason: "not today" } });
  });

  it("cancels a turn waiting for approval", async () => {
    const { base, sessionId, chat } = await setup();
    const { events } = await streamTurn(base, sessionId, async (turnId) => {
      expect((await post(`${base}/sessions/${sessionId}/turns/${turnId}/cancel`)).status).toBe(200);
    });
    expect(events.at(-1)!.data).toMatchObject({ type: "turn-end", status: "canceled" });
    const [turn] = await (await chat.openSession(sessionId)).turns();
    expect(turn.status).toBe("canceled");
  });

  it("never sends a tool's raw input, a key or a stack trace in any response", async () => {
    const { base, sessionId } = await setup(2);
    const { turnId, raw } = await streamTurn(base, sessionId, async (turnId, request) => {
      await text(post(`${base}/sessions/${sessionId}/turns/${turnId}/approve`, { approvalId: request.id }));
    });
    expect(raw).toContain("Deployed 2.");
    await text(fetch(`${base}/turns/${turnId}/events`));
    await text(fetch(`${base}/turns/${turnId}/events`, { headers: { "last-event-id": "1" } }));
    await text(fetch(`${base}/sessions/${sessionId}`));
    await text(fetch(`${base}/sessions`));

    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) {
      for (const secret of SECRETS) expect(body).not.toContain(secret);
      expect(body).not.toMatch(/"apiKey":"(?!\[redacted\])/);
      expect(body).not.toMatch(/\n\s+at /);
    }
  });
});
