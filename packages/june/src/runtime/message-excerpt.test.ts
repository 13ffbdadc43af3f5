import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
// A timer between gc() rounds, not setImmediate: work V8 does off the main thread may hold an object a moment longer (see session-memory.test.ts).
import { setTimeout as sleep } from "node:timers/promises";
const tick = () => sleep(20);
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { EXCERPT_CHARS, RECENT_EXCERPTS, excerptText, messageExcerpt, promptExcerpt } from "./message-excerpt.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";

describe("message excerpts", () => {
  test("a frozen text message is excerpted once and the excerpt is shared, frozen and redacted", () => {
    const message = Object.freeze({ role: "user", content: `my key is ${KEY} ok` }) as ModelMessage;
    const first = messageExcerpt(message);
    const again = messageExcerpt(message);
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.text).not.toContain(KEY);
    expect(first.role).toBe("user");
    // Two prompts that end on the same context messages share their excerpts.
    const a = promptExcerpt(undefined, [message]).prompt[0];
    expect(a).toBe(first);
  });

  test("a message that may still change is excerpted afresh each time", () => {
    const message = { role: "user", content: "first words" } as { role: "user"; content: string };
    expect(messageExcerpt(message).text).toBe("first words");
    message.content = `now ${KEY}`;
    const later = messageExcerpt(message);
    expect(later.text).not.toContain(KEY);
    expect(later.text.startsWith("now ")).toBe(true);
  });

  test("a short text comes back as it is; a long one is cut to a string of its own", () => {
    const short = "just a short reply";
    expect(excerptText(short)).toBe(short);
    const long = "word ".repeat(400);
    const cut = excerptText(long);
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(long.startsWith(cut.slice(0, 100))).toBe(true);
  });

  test("an excerpt is let go once newer messages were excerpted, while its message lives on (a session's journal keeps it)", async () => {
    const kept = Object.freeze({ role: "assistant", content: "A long reply. ".repeat(40) }) as ModelMessage;
    const ref = new WeakRef(messageExcerpt(kept));
    // Shared while recent.
    expect(messageExcerpt(kept)).toBe(ref.deref());
    for (let i = 0; i < RECENT_EXCERPTS; i++) messageExcerpt(Object.freeze({ role: "user", content: `question ${i}` }) as ModelMessage);
    for (let i = 0; i < 3; i++) {
      gc();
      await tick();
    }
    expect(ref.deref()).toBeUndefined();
    expect(messageExcerpt(kept).text).toBe(excerptText(kept.content as string));
  });

  test("excerpts of long texts keep none of the texts alive", async () => {
    gc();
    await tick();
    const before = process.memoryUsage().heapUsed;
    const excerpts: string[] = [];
    for (let i = 0; i < 40; i++) {
      // 256 KB each, 10 MB in all; every other one with a key inside the part looked at (so it is redacted first).
      const text = (i % 2 === 0 ? `reply ${i}: ` : `reply ${i} ${KEY}: `) + "word ".repeat(52_000);
      excerpts.push(excerptText(text), messageExcerpt({ role: "assistant", content: text }).text);
    }
    for (let i = 0; i < 3; i++) {
      gc();
      await tick();
    }
    const held = process.memoryUsage().heapUsed - before;
    expect(excerpts.every((e) => e.length <= EXCERPT_CHARS && !e.includes(KEY))).toBe(true);
    // 80 excerpts of 300 characters: a few tens of KB; one text kept alive would be 256 KB.
    expect(held).toBeLessThan(2_000_000);
  });
});
