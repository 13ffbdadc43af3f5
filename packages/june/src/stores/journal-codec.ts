import { JournalCorruptError } from "./errors.js";
import { JournalReadCheck } from "./journal-shape.js";
import type { JournalEntry } from "./types.js";

/**
 * The JSONL form of a journal. One entry per line. An append of several entries is one write of whole
 * lines in which every line but the last carries `"_more":true`: a write cut short (a killed process, a
 * full disk) leaves either a partial last line or a batch whose last line is still marked, and both are
 * left out on read and cut off by the next append, so a batch is all or nothing even on disk.
 */
export const MORE_KEY = "_more";

export const NEWLINE = 0x0a;

/** The bytes of one append: whole lines, all but the last marked as continued. */
export function encodeBatch(lines: readonly string[]): Buffer {
  let text = "";
  const last = lines.length - 1;
  for (let i = 0; i <= last; i++) {
    const line = lines[i];
    text += i < last ? `${line.slice(0, -1)},"${MORE_KEY}":true}\n` : `${line}\n`;
  }
  return Buffer.from(text, "utf8");
}

type StoredEntry = JournalEntry & { [MORE_KEY]?: true };

/** One line's entry: a JSON object, else undefined (the read check then names the line). */
export function parseLine(text: string): StoredEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as StoredEntry) : undefined;
}

function isStoredEntry(value: StoredEntry): boolean {
  return typeof value.type === "string" && typeof value.at === "string" && Number.isInteger(value.seq);
}

/** Where the readable part of a journal ends, and its last entry. */
export interface JournalTail {
  /** Bytes of whole, complete entries (relative to the analyzed buffer); anything after is torn. */
  validBytes: number;
  last?: JournalEntry;
}

/**
 * Finds the end of the readable journal by looking at its last lines only. `buf` holds journal bytes from a
 * line boundary (the whole file, or what follows a known readable part) to the end of the file.
 * Returns "corrupt" when the tail is not a torn write (a full decode then names the line).
 */
export function analyzeTail(buf: Buffer): JournalTail | "corrupt" {
  let lineEnd = buf.lastIndexOf(NEWLINE);
  if (lineEnd === -1) return { validBytes: 0 };
  // One torn line at most: a partial line after the last newline, or else an unreadable last line.
  let mayBeTorn = lineEnd === buf.length - 1;
  for (;;) {
    const start = lineEnd === 0 ? 0 : buf.lastIndexOf(NEWLINE, lineEnd - 1) + 1;
    const entry = parseLine(buf.toString("utf8", start, lineEnd));
    if (entry === undefined) {
      if (!mayBeTorn) return "corrupt";
    } else if (!isStoredEntry(entry)) {
      return "corrupt";
    } else if (entry[MORE_KEY] !== true) {
      return { validBytes: lineEnd + 1, last: stripMarker(entry) };
    }
    mayBeTorn = false;
    if (start === 0) return { validBytes: 0 };
    lineEnd = start - 1;
  }
}

/** A journal as read back. */
export interface DecodedJournal {
  entries: JournalEntry[];
  /** Bytes of the readable journal; the file may hold a torn tail after them. */
  validBytes: number;
  lastSeq: number;
}

/**
 * Decodes a whole journal file: entries with `seq >= fromSeq`, a torn tail left out.
 * Throws `JournalCorruptError` (with the 1-based line, and `location` when given) for an unreadable or
 * malformed line before the tail, a seq out of order, a journal that does not start with its `session`
 * entry, or (reading from the start) an entry naming a turn that did not start before it (see
 * `JournalReadCheck`). Entries before `fromSeq` are not parsed.
 */
export function decodeJournal(buf: Buffer, sessionId: string, fromSeq = 1, location?: string): DecodedJournal {
  const tail = analyzeTail(buf);
  // A corrupt tail: decode every complete line so that the error names the first bad one.
  const strict = tail === "corrupt";
  const validBytes = strict ? buf.lastIndexOf(NEWLINE) + 1 : tail.validBytes;
  const lines = buf.toString("utf8", 0, validBytes).split("\n");
  lines.pop();
  const where = location === undefined ? undefined : { location };
  if (lines.length === 0) throw new JournalCorruptError(sessionId, 1, "no session entry", where);
  const entries: JournalEntry[] = [];
  const start = strict ? 0 : Math.min(Math.max(0, fromSeq - 1), lines.length);
  const check = new JournalReadCheck({ sessionId, fromSeq: start + 1, ...where });
  for (let i = start; i < lines.length; i++) {
    const entry = check.check(parseLine(lines[i]));
    if (i + 1 >= fromSeq) entries.push(stripMarker(entry as StoredEntry));
  }
  return { entries, validBytes, lastSeq: lines.length };
}

/** The entry without the batch marker its line carried, if any. */
export function stripMarker(entry: JournalEntry): JournalEntry {
  const stored = entry as StoredEntry;
  if (MORE_KEY in stored) delete stored[MORE_KEY];
  return entry;
}

/**
 * Decodes the part of a journal that follows a readable part already known (`buf` starts at its end, a line
 * boundary): its first line must be entry `firstSeq`. A torn tail is left out. Throws `JournalCorruptError` as
 * `decodeJournal` does (line numbers from `firstSeq`), or returns undefined when the tail is not a torn write
 * (a full decode then names the line).
 */
export function decodeAppended(buf: Buffer, sessionId: string, firstSeq: number, location?: string): DecodedJournal | undefined {
  const tail = analyzeTail(buf);
  if (tail === "corrupt") return undefined;
  const entries: JournalEntry[] = [];
  if (tail.validBytes === 0) return { entries, validBytes: 0, lastSeq: firstSeq - 1 };
  const lines = buf.toString("utf8", 0, tail.validBytes).split("\n");
  lines.pop();
  const check = new JournalReadCheck({ sessionId, fromSeq: firstSeq, ...(location === undefined ? {} : { location }) });
  for (const line of lines) entries.push(stripMarker(check.check(parseLine(line)) as StoredEntry));
  return { entries, validBytes: tail.validBytes, lastSeq: firstSeq - 1 + lines.length };
}
