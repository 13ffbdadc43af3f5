import { validateUIMessages } from "ai";
import { createChat, toUIMessages, type TurnRecord } from "june/chat";
import type { JournalEntry } from "june/store-kit";
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

  it("with the journal, an ended turn's decided requests are tool parts: name, state, decision, never input or output", async () => {
    const base = { steers: [], startedAt: "2026-01-01T00:00:00.000Z" };
    const turns: TurnRecord[] = [
      { ...base, id: "t1", input: "a", status: "completed", text: "Done." },
      { ...base, id: "t2", input: "b", status: "failed", error: { name: "Error", message: "boom" } },
      { ...base, id: "t3", input: "c", status: "suspended", resumable: true, text: "Waiting." },
    ];
    const at = "2026-01-01T00:00:01.000Z";
    const journal: JournalEntry[] = [
      { type: "approval", seq: 1, at, turnId: "t1", requestId: "work/deploy", toolName: "deploy", approved: true, edited: true },
      { type: "approval", seq: 2, at, turnId: "t1", requestId: "work/read", toolName: "read", approved: true, decidedBy: "policy" },
      { type: "approval", seq: 3, at, turnId: "t1", requestId: "q1", toolName: "ask_user", approved: true, reason: "question answered" },
      { type: "approval", seq: 4, at, turnId: "t1", requestId: "work/drop", toolName: "drop", approved: false, reason: "key sk-proj-ABCDEFGHIJ0123456789xyz" },
      { type: "approval", seq: 5, at, turnId: "t1", requestId: "work/drop", toolName: "drop", approved: true },
      { type: "approval", seq: 6, at, toolName: "deploy", approved: false, remember: "session" },
      { type: "approval", seq: 7, at, turnId: "t2", requestId: "work/deploy", toolName: "deploy", approved: true },
      { type: "approval", seq: 8, at, turnId: "t3", requestId: "work/deploy", toolName: "deploy", approved: true },
    ];
    const messages = toUIMessages(turns, { journal });
    expect(messages[1]!.parts).toEqual([
      { type: "dynamic-tool", toolName: "deploy", toolCallId: "work/deploy", state: "output-available", input: {}, output: null, approval: { id: "work/deploy", approved: true } },
      { type: "dynamic-tool", toolName: "ask_user", toolCallId: "q1", state: "output-available", input: {}, output: null },
      { type: "dynamic-tool", toolName: "drop", toolCallId: "work/drop", state: "output-denied", input: {}, approval: { id: "work/drop", approved: false, reason: "key [redacted]" } },
      { type: "text", text: "Done.", state: "done" },
    ]);
    expect(messages[3]!.parts).toEqual([
      {
        type: "dynamic-tool",
        toolName: "deploy",
        toolCallId: "work/deploy",
        state: "output-error",
        input: {},
        errorText: "The turn failed (the journal keeps no outcome of this call)",
        approval: { id: "work/deploy", approved: true },
      },
    ]);
    // A turn not ended shows no tool parts from the journal (the handler shows a running one's own).
    expect(messages[5]!.parts).toEqual([{ type: "text", text: "Waiting.", state: "done" }]);
    // Without the journal, as before.
    expect(toUIMessages(turns)[1]!.parts).toEqual([{ type: "text", text: "Done.", state: "done" }]);
    await expect(validateUIMessages({ messages })).resolves.toEqual(messages);
  });
});
