import { createChat, toUIMessages, type TurnRecord } from "june/chat";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";

describe("toUIMessages", () => {
  it("makes a user and an assistant message per turn of the current branch", async () => {
    const chat = createChat({ model: scriptedModel(["One.", "Two.", "Two, again."]) });
    const session = await chat.createSession();
    await session.send("First").result;
    await session.send("Second").result;
    await session.regenerate().result;
    const turns = await session.turns();
    expect(toUIMessages(turns)).toEqual([
      { id: `${turns[0].id}-user`, role: "user", parts: [{ type: "text", text: "First" }] },
      { id: turns[0].id, role: "assistant", metadata: { turnStatus: "completed" }, parts: [{ type: "text", text: "One.", state: "done" }] },
      { id: `${turns[1].id}-user`, role: "user", parts: [{ type: "text", text: "Second" }] },
      { id: turns[1].id, role: "assistant", metadata: { turnStatus: "completed" }, parts: [{ type: "text", text: "Two, again.", state: "done" }] },
    ]);
  });

  it("keeps failed and canceled turns with what they said, redacted, and leaves out a running turn's empty reply", () => {
    const base = { steers: [], startedAt: "2026-01-01T00:00:00.000Z" };
    const turns: TurnRecord[] = [
      { ...base, id: "t1", input: "a", status: "failed", error: { name: "Error", message: "boom" } },
      { ...base, id: "t2", input: "b", status: "canceled", text: "Half, key sk-proj-ABCDEFGHIJ0123456789xyz" },
      { ...base, id: "t3", input: "c", status: "running" },
    ];
    const messages = toUIMessages(turns);
    expect(messages.map((m) => m.id)).toEqual(["t1-user", "t1", "t2-user", "t2", "t3-user"]);
    expect(messages[1]).toMatchObject({ metadata: { turnStatus: "failed" }, parts: [] });
    expect(JSON.stringify(messages[3])).not.toContain("ABCDEFGHIJ0123456789xyz");
  });
});
