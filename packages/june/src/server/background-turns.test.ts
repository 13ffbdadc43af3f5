import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen, post } from "./__fixtures__/servers.js";

// The 202 of a chat with a queue is tested on PostgreSQL with workers, in src/worker/workers.test.ts.
describe("POST /sessions/:id/turns with background", () => {
  it("answers a chat without a queue with a 501 that says so, and a background that is not a boolean with a 400", async () => {
    const chat = createChat({ model: scriptedModel([]) });
    const base = await listen(createChatHandler(chat));
    const { id } = (await (await post(`${base}/sessions`, {})).json()) as { id: string };
    const none = await post(`${base}/sessions/${id}/turns`, { input: "hi", background: true });
    expect(none.status).toBe(501);
    expect(((await none.json()) as { error: string }).error).toMatch(/needs a queue/);
    const bad = await post(`${base}/sessions/${id}/turns`, { input: "hi", background: "yes" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/"background"/);
    expect(await (await chat.openSession(id)).turns()).toEqual([]);
  });
});
