import { createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";

describe("GET /turns/:id/events?missing=empty", () => {
  it("answers 204 for a turn the server no longer has, where a plain request gets 404", async () => {
    const chat = createChat({ model: scriptedModel(["Hi."]) });
    const handler = createChatHandler(chat);
    const plain = await handler(new Request("http://studio.test/turns/no-such-turn/events"));
    expect(plain.status).toBe(404);
    const asked = await handler(new Request("http://studio.test/turns/no-such-turn/events?missing=empty"));
    expect(asked.status).toBe(204);
    expect(await asked.text()).toBe("");

    // A turn it has is streamed either way.
    const session = await chat.createSession();
    const started = await handler(
      new Request(`http://studio.test/sessions/${session.id}/turns`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: "Hello" }),
      }),
    );
    const turnId = started.headers.get("x-june-turn-id")!;
    await started.text();
    const kept = await handler(new Request(`http://studio.test/turns/${turnId}/events?missing=empty`));
    expect(kept.status).toBe(200);
    expect(await kept.text()).toContain("turn-end");
  });
});
