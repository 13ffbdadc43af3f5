import { describe, expect, test } from "vitest";
import { memoryStore } from "../stores/memory-store.js";
import { createChat } from "./create-chat.js";
import { TurnNotCompletedError, TurnNotFoundError } from "./errors.js";
import { normalizeFeedback } from "./feedback.js";
import { REDACTED } from "../redaction/redact.js";
import type { Responder } from "./types.js";

const echo: Responder = { respond: ({ input }) => ({ result: Promise.resolve({ text: `re: ${input}` }) }) };

/** A responder whose turn waits until `release()` is called. */
function gated(): { responder: Responder; release(): void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { responder: { respond: () => ({ result: gate.then(() => ({ text: "late" })) }) }, release: () => release() };
}

async function completedTurn() {
  const store = memoryStore();
  let n = 0;
  const chat = createChat({ responder: echo, store, idGenerator: (kind) => `${kind}-${++n}` });
  const session = await chat.createSession();
  const turn = session.send("hello");
  await turn.result;
  return { chat, store, session, turnId: turn.id };
}

describe("normalizeFeedback", () => {
  test("takes 1, -1 and scores from 0 to 1", () => {
    for (const score of [1, -1, 0, 0.25, 1]) expect(normalizeFeedback({ score })).toEqual({ score });
  });

  test("refuses other scores with an error naming the value", () => {
    expect(() => normalizeFeedback({ score: 2 })).toThrow(RangeError);
    expect(() => normalizeFeedback({ score: 2 })).toThrow(/got 2$/);
    expect(() => normalizeFeedback({ score: -0.5 })).toThrow(/got -0.5/);
    expect(() => normalizeFeedback({ score: "up" })).toThrow(TypeError);
    expect(() => normalizeFeedback({ score: "up" })).toThrow(/got "up"/);
    expect(() => normalizeFeedback({ score: Number.NaN })).toThrow(/got NaN/);
    expect(() => normalizeFeedback({})).toThrow(/got undefined/);
    expect(() => normalizeFeedback(1)).toThrow(/must be an object/);
    expect(() => normalizeFeedback({ score: 1, stars: 5 })).toThrow(/unknown field "stars"/);
  });

  test("bounds and redacts the comment, checks and redacts the tags", () => {
    expect(() => normalizeFeedback({ score: 1, comment: 5 })).toThrow(/comment must be a string, got 5/);
    expect(() => normalizeFeedback({ score: 1, comment: "x".repeat(10_001) })).toThrow(/10001 characters, at most 10000/);
    expect(normalizeFeedback({ score: 1, comment: "x".repeat(10_000) }).comment).toHaveLength(10_000);
    expect(normalizeFeedback({ score: -1, comment: "it leaked sk-proj-0123456789abcdefghijklmn" })).toEqual({
      score: -1,
      comment: `it leaked ${REDACTED}`,
    });
    expect(normalizeFeedback({ score: 1, comment: "   " })).toEqual({ score: 1 });
    expect(normalizeFeedback({ score: 1, tags: [" style ", "style", "tone"] })).toEqual({ score: 1, tags: ["style", "tone"] });
    expect(() => normalizeFeedback({ score: 1, tags: "style" })).toThrow(/tags must be an array/);
    expect(() => normalizeFeedback({ score: 1, tags: ["ok", ""] })).toThrow(/tags\[1\]/);
    expect(() => normalizeFeedback({ score: 1, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) })).toThrow(/33 tags/);
  });
});

describe("session.feedback", () => {
  test("journals a feedback entry; a later one supersedes the earlier", async () => {
    const { store, session, turnId } = await completedTurn();
    await expect(session.feedback(turnId, { score: 1, comment: "great", tags: ["tone"] })).resolves.toEqual({
      score: 1,
      comment: "great",
      tags: ["tone"],
    });
    expect((await session.turns())[0]!.feedback).toEqual({ score: 1, comment: "great", tags: ["tone"] });
    await session.feedback(turnId, { score: 0.2 });
    expect((await session.turns())[0]!.feedback).toEqual({ score: 0.2 });

    const entries = (await store.read(session.id)).filter((entry) => entry.type === "feedback");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ type: "feedback", turnId, score: 1, comment: "great", tags: ["tone"] });
    expect(entries[1]).toMatchObject({ type: "feedback", turnId, score: 0.2 });
    expect(entries[1]).not.toHaveProperty("comment");
  });

  test("another process's session object sees it once reopened, and so does a fresh read", async () => {
    const { chat, session, turnId } = await completedTurn();
    const other = await chat.openSession(session.id);
    await other.feedback(turnId, { score: -1, comment: "wrong" });
    // The first object catches up with what the other wrote.
    expect((await session.turns())[0]!.feedback).toEqual({ score: -1, comment: "wrong" });
    await session.feedback(turnId, { score: 1 });
    expect((await (await chat.openSession(session.id)).turns())[0]!.feedback).toEqual({ score: 1 });
  });

  test("refuses an unknown turn, and a turn that did not complete, writing nothing", async () => {
    const { store, session } = await completedTurn();
    await expect(session.feedback("nope", { score: 1 })).rejects.toBeInstanceOf(TurnNotFoundError);
    await expect(session.feedback("nope", { score: 1 })).rejects.toMatchObject({
      name: "TurnNotFoundError",
      sessionId: session.id,
      turnId: "nope",
    });
    await expect(session.feedback("", { score: 1 })).rejects.toThrow(TypeError);

    const failing = createChat({ responder: { respond: () => ({ result: Promise.reject(new Error("boom")) }) }, store });
    const failingSession = await failing.openSession(session.id);
    const failed = failingSession.send("again");
    await failed.result.catch(() => {});
    await expect(failingSession.feedback(failed.id, { score: 1 })).rejects.toMatchObject({
      name: "TurnNotCompletedError",
      status: "failed",
      message: expect.stringContaining("failed"),
    });
    expect((await store.read(session.id)).some((entry) => entry.type === "feedback")).toBe(false);
  });

  test("refuses a running turn, then takes feedback once it completed", async () => {
    const { responder, release } = gated();
    const chat = createChat({ responder });
    const session = await chat.createSession();
    const turn = session.send("wait");
    // The turn-start entry is journaled shortly after send(); wait for it.
    while ((await session.turns()).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await session.feedback(turn.id, { score: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TurnNotCompletedError);
    expect(refused).toMatchObject({ status: "running" });
    release();
    await turn.result;
    await session.feedback(turn.id, { score: 1 });
    expect((await session.turns())[0]!.feedback).toEqual({ score: 1 });
  });

  test("bad feedback is refused before anything is read or written", async () => {
    const { store, session, turnId } = await completedTurn();
    await expect(session.feedback(turnId, { score: 3 })).rejects.toThrow(/got 3/);
    await expect(session.feedback(turnId, { score: 1, comment: "y".repeat(20_000) })).rejects.toThrow(RangeError);
    expect((await store.read(session.id)).some((entry) => entry.type === "feedback")).toBe(false);
  });
});
