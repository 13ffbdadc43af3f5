import { describe, expect, it } from "vitest";
import { entryFields, eventOf } from "./redis-keys.js";

const entry = (fields: string[]) => {
  const record: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
  return { id: "0-1", fields: record };
};

describe("a turn's Redis stream entries", () => {
  it("read back through the turn stream's schema: an entry that is not a valid event is skipped", () => {
    const event = { type: "turn-end" as const, turnId: "t", sessionId: "s", status: "completed" as const, text: "ok" };
    expect(eventOf(entry(entryFields(3, event)))).toEqual({ index: 3, event });
    expect(eventOf(entry(["id", "4", "type", "turn-end", "data", JSON.stringify({ type: "turn-end", status: "done" })]))).toBeUndefined();
    expect(eventOf(entry(["id", "5", "type", "text-delta", "data", JSON.stringify({ type: "text-delta", text: 42 })]))).toBeUndefined();
    expect(eventOf(entry(["id", "x", "data", JSON.stringify(event)]))).toBeUndefined();
  });
});
