import { describe, expect, it } from "vitest";
import { JournalCorruptError } from "./errors.js";
import { analyzeTail, decodeJournal, encodeBatch } from "./journal-codec.js";
import { prepareEntries, prepareSessionEntry } from "./journal-entries.js";
import { foldEntry, makeTitle, startListing } from "./session-listing.js";
import { scanListing } from "./listing-scan.js";
import type { JournalEntry, NewJournalEntry } from "./types.js";

/** A journal built the way the file store writes it, from random batches. */
function randomJournal(seed: number, batches: number) {
  let state = seed;
  const rand = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const t0 = Date.UTC(2024, 0, 1);
  const session = prepareSessionEntry("s", { seed }, new Date(t0));
  const chunks = [encodeBatch(session.lines)];
  const ends = [chunks[0].length];
  let seq = 1;
  // Ends and feedback name a turn that started before them, as a read checks.
  const started: string[] = [];
  for (let b = 0; b < batches; b++) {
    const batch: NewJournalEntry[] = Array.from({ length: 1 + rand(3) }, (_, i): NewJournalEntry => {
      const kind = rand(3);
      if (kind === 0 || started.length === 0) {
        const turnId = `t${b}-${i}`;
        started.push(turnId);
        return { type: "turn-start", turnId, input: `q ${"é\n".repeat(rand(60))}`, context: { builder: "full", turnIds: [] } };
      }
      const turnId = started[rand(started.length)];
      return kind === 1
        ? { type: "turn-end", turnId, status: "completed", text: "a".repeat(rand(50)) }
        : { type: "feedback", turnId, score: rand(5), tags: ["x"] };
    });
    const prepared = prepareEntries(batch, seq, new Date(t0 + (b + 1) * 1000));
    seq += batch.length;
    chunks.push(encodeBatch(prepared.lines));
    ends.push(ends[ends.length - 1] + chunks[chunks.length - 1].length);
  }
  return { buf: Buffer.concat(chunks), ends };
}

function fold(entries: JournalEntry[]) {
  const listing = startListing(entries[0]);
  for (const e of entries.slice(1)) foldEntry(listing, e);
  return listing;
}

describe("journal codec", () => {
  it("decodes what it encodes, without the batch marker", () => {
    const { buf } = randomJournal(7, 40);
    const { entries, validBytes, lastSeq } = decodeJournal(buf, "s");
    expect(validBytes).toBe(buf.length);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(lastSeq).toBe(entries.length);
    expect(entries.some((e) => "_more" in e)).toBe(false);
    expect(Object.keys(entries[1]).slice(0, 3)).toEqual(["type", "at", "seq"]);
  });

  it("cutting a journal anywhere keeps exactly the batches written in full", () => {
    const { buf, ends } = randomJournal(11, 25);
    for (let cut = ends[0]; cut <= buf.length; cut += 7) {
      const part = buf.subarray(0, cut);
      const complete = ends.filter((e) => e <= cut).at(-1)!;
      const decoded = decodeJournal(part, "s");
      expect(decoded.validBytes).toBe(complete);
      expect(decoded.entries).toEqual(decodeJournal(buf.subarray(0, complete), "s").entries);
    }
  });

  it("reads from a seq without parsing what comes before", () => {
    const { buf } = randomJournal(3, 30);
    const all = decodeJournal(buf, "s").entries;
    expect(decodeJournal(buf, "s", 10).entries).toEqual(all.slice(9));
    expect(decodeJournal(buf, "s", all.length + 5).entries).toEqual([]);
  });

  it("names the line of a corrupt entry, and of a missing session entry", () => {
    const lines = randomJournal(5, 6).buf.toString().split("\n");
    lines[3] = "][";
    expect(() => decodeJournal(Buffer.from(lines.join("\n")), "s")).toThrow(JournalCorruptError);
    expect(() => decodeJournal(Buffer.from(lines.join("\n")), "s")).toThrow(/line 4/);
    expect(() => decodeJournal(Buffer.from(""), "s")).toThrow(/line 1: no session entry/);
    expect(analyzeTail(Buffer.from('{"a":1}\n{"b"\n'))).toBe("corrupt");
  });

  it("listings from the prefix scan equal those from a full decode, also when extended", () => {
    for (let seed = 1; seed < 30; seed++) {
      const { buf, ends } = randomJournal(seed, 20);
      const expected = fold(decodeJournal(buf, "s").entries);
      const whole = scanListing(buf, "s");
      expect(whole.listing).toEqual(expected);
      expect(whole.validBytes).toBe(buf.length);
      const mid = ends[1 + (seed % 15)];
      const head = scanListing(buf.subarray(0, mid + 5), "s"); // a torn tail in the first look
      expect(head.validBytes).toBe(mid);
      expect(scanListing(buf.subarray(head.validBytes), "s", head).listing).toEqual(expected);
    }
  });
});

describe("titles", () => {
  it("collapse whitespace and cut long inputs to 80 characters", () => {
    expect(makeTitle("  hello \n world ")).toBe("hello world");
    const long = makeTitle("word ".repeat(50));
    expect(long).toHaveLength(80);
    expect(long.endsWith("…")).toBe(true);
    expect(makeTitle(`${"a".repeat(78)}😀😀`)).toBe(`${"a".repeat(78)}…`);
  });
});
