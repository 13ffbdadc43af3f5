import { describe, expect, test } from "vitest";
import { encodeEntry, prepareEntries } from "./journal-entries.js";
import type { JournalEntry, NewJournalEntry } from "./types.js";

describe("journal entries", () => {
  test("a stored line starts with type, at and seq, then the entry's own fields in their order", () => {
    const { lines, entries } = prepareEntries(
      [{ type: "turn-start", turnId: "t1", input: "hi", context: { builder: "fullContext", turnIds: [] } }] as NewJournalEntry[],
      4,
      new Date("2026-12-01T10:00:00.000Z"),
    );
    expect(lines[0]).toBe(
      '{"type":"turn-start","at":"2026-12-01T10:00:00.000Z","seq":5,"turnId":"t1","input":"hi","context":{"builder":"fullContext","turnIds":[]}}',
    );
    expect(entries[0]).toEqual(JSON.parse(lines[0]!));
    // `seq` and `at` given by the writer are its own; `seq` is always the store's.
    const again = encodeEntry({ seq: 9, turnId: "t2", type: "turn-end", status: "completed", at: "2026-12-01T10:00:01.000Z" } as unknown as JournalEntry, "x");
    expect(again.startsWith('{"type":"turn-end","at":"2026-12-01T10:00:01.000Z","seq":9,"turnId":"t2"')).toBe(true);
  });

  test("a field named __proto__ stays a field, as JSON.parse reads it back", () => {
    const entry = JSON.parse('{"type":"feedback","turnId":"t1","rating":"up","__proto__":{"polluted":true}}') as JournalEntry;
    const line = encodeEntry(entry, "x");
    expect(line).toContain('"__proto__":{"polluted":true}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("a value JSON cannot hold names the entry", () => {
    expect(() =>
      prepareEntries([{ type: "feedback", turnId: "t1", rating: "up", note: 10n } as unknown as NewJournalEntry], 1, new Date()),
    ).toThrow(/append: entry 0 \(feedback\) is not JSON-serializable/);
  });
});
