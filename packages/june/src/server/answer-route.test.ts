import { memoryStore } from "june/chat";
import { createChatHandler } from "june/server";
import { describe, expect, it } from "vitest";
import { askChat, QUESTION } from "../ask/__fixtures__/ask-chat.js";
import { listen, post } from "./__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "./__fixtures__/sse-client.js";

describe("POST /sessions/:id/turns/:turnId/answer", () => {
  it("answers a question from its input-request event; a bad body is a 400 and the question stays; a second answer is a 409", async () => {
    const { chat } = askChat({ store: memoryStore() });
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession();
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "Ship it" });
    expect(response.status).toBe(200);
    const events: SseEvent[] = [];
    let turnId = "";
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event === "input-request") {
        expect(event.data.request).toEqual({ id: expect.any(String), question: QUESTION });
        const id = event.data.request.id;
        const bad = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId: id });
        expect(bad.status).toBe(400);
        expect((await bad.json()).error).toContain('"value" is required');
        const approve = await post(`${base}/sessions/${session.id}/turns/${turnId}/approve`, { approvalId: id });
        expect(approve.status).toBe(409);
        await approve.text();
        const ok = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId: id, value: "staging" });
        expect(ok.status).toBe(200);
        expect(await ok.json()).toEqual({ ok: true });
        const again = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId: id, value: "prod" });
        expect(again.status).toBe(409);
        await again.text();
      }
    }
    expect(events.map((e) => e.event)).toContain("input-request");
    expect(events.at(-1)).toMatchObject({ event: "turn-end", data: { status: "completed", text: 'Deploying to "staging".' } });
  });
});
