import { JournalCorruptError } from "./errors.js";
import { analyzeTail, decodeJournal } from "./journal-codec.js";
import { foldEntry, makeTitle, startListing, type SessionListing } from "./session-listing.js";
import type { JournalEntry } from "./types.js";

// Entries are written with `type` first (see encodeEntry), so a line's type shows in its first bytes.
const TYPE_PREFIX = Buffer.from('{"type":"');
const TURN_START_PREFIX = Buffer.from('{"type":"turn-start",');
const RENAME_PREFIX = Buffer.from('{"type":"rename",');
const NEWLINE = 0x0a;

/** A listing and how many bytes of the journal it covers (always a line boundary). */
export interface ScannedListing {
  listing: SessionListing;
  validBytes: number;
}

/**
 * Reads a session's listing from journal bytes without parsing every line: the `session` entry, the first `turn-start` and the
 * last `rename` (for the title) and the last entry are parsed; turns are counted by their line prefix. Lines not in June's own
 * layout fall back to a full parse.
 *
 * `buf` holds the whole journal, or, with `base`, the bytes after `base.validBytes`.
 * Throws `JournalCorruptError` when the journal cannot be listed.
 */
export function scanListing(buf: Buffer, sessionId: string, base?: ScannedListing): ScannedListing {
  const offset = base?.validBytes ?? 0;
  const tail = analyzeTail(buf);
  if (tail === "corrupt") {
    if (!base) decodeJournal(buf, sessionId); // throws, naming the line
    throw new JournalCorruptError(sessionId, 0, "unreadable entries after the part already read");
  }
  const end = tail.validBytes;
  if (end === 0) {
    if (!base) throw new JournalCorruptError(sessionId, 1, "no session entry");
    return base;
  }
  let pos = 0;
  let listing: SessionListing;
  if (base) {
    listing = { ...base.listing };
  } else {
    const nl = buf.indexOf(NEWLINE);
    const first = parseEntry(buf, 0, nl);
    if (first?.type !== "session" || first.seq !== 1) {
      throw new JournalCorruptError(sessionId, 1, "the journal does not start with its session entry");
    }
    listing = startListing(first);
    pos = nl + 1;
  }
  const from = pos;
  let turns = 0;
  let firstTurn = -1;
  let lastRename = -1;
  let layoutKnown = true;
  while (pos < end) {
    const nl = buf.indexOf(NEWLINE, pos);
    if (!hasPrefix(buf, pos, nl, TYPE_PREFIX)) {
      layoutKnown = false;
      break;
    }
    if (hasPrefix(buf, pos, nl, TURN_START_PREFIX)) {
      turns += 1;
      if (firstTurn === -1) firstTurn = pos;
    } else if (hasPrefix(buf, pos, nl, RENAME_PREFIX)) {
      lastRename = pos;
    }
    pos = nl + 1;
  }
  if (!layoutKnown) {
    foldLines(buf.toString("utf8", from, end), listing, sessionId);
  } else {
    listing.turnCount += turns;
    const rename = lastRename === -1 ? undefined : parseEntry(buf, lastRename, buf.indexOf(NEWLINE, lastRename));
    if (rename?.type === "rename") {
      listing.title = String(rename.title);
    } else if (listing.title === undefined && firstTurn !== -1) {
      const entry = parseEntry(buf, firstTurn, buf.indexOf(NEWLINE, firstTurn));
      if (entry?.type === "turn-start") listing.title = makeTitle(String(entry.input));
    }
    if (tail.last) {
      listing.updatedAt = tail.last.at;
      listing.lastSeq = tail.last.seq;
    }
  }
  return { listing, validBytes: offset + end };
}

function hasPrefix(buf: Buffer, start: number, lineEnd: number, prefix: Buffer): boolean {
  return lineEnd - start >= prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

function parseEntry(buf: Buffer, start: number, end: number): JournalEntry | undefined {
  try {
    const value: unknown = JSON.parse(buf.toString("utf8", start, end));
    return typeof value === "object" && value !== null ? (value as JournalEntry) : undefined;
  } catch {
    return undefined;
  }
}

function foldLines(text: string, listing: SessionListing, sessionId: string): void {
  const lines = text.split("\n");
  lines.pop();
  for (const line of lines) {
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      throw new JournalCorruptError(sessionId, listing.lastSeq + 1, "not a JSON object");
    }
    foldEntry(listing, entry);
  }
}
