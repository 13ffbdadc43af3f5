import { isAscii } from "node:buffer";
import { JournalCorruptError } from "./errors.js";
import { MORE_KEY, analyzeTail, decodeJournal, parseLine, stripMarker } from "./journal-codec.js";
import { JournalReadCheck, entryProblem } from "./journal-shape.js";
import type { StoredTurn } from "./turn-records.js";
import type { ChatStore, JournalEntry, TurnEndEntry, TurnStartEntry } from "./types.js";

/**
 * How a session opens a long journal without parsing all of it. A built-in store's `[openJournal](id)` hands
 * the whole journal over in one pass: every entry parsed and checked (`JournalReadCheck`: its form, its seq,
 * the turns it names), except June's own `turn-start` and `turn-end` lines, which are kept as their JSON text
 * once their head (type, seq, turn id, parent) is read and checked, and are parsed and checked
 * by `EntryLine.decode` the first time the session hands out a record (`turns()`, a turn's context).
 * A damaged reply is then the same `JournalCorruptError` naming the file and the line, thrown before anything
 * reads it. The method is non-enumerable, so a store wrapped by spreading (`{ ...store, read }`) opens through
 * its own `read`.
 */
export const openJournal: unique symbol = Symbol.for("june.store.openJournal");

/**
 * Set (non-enumerable, `true`) on a store whose `read` checks the form of every entry it returns
 * (`entryProblem`): a session folding them checks only what a read cannot see (that each turn an entry names
 * started before it, on reads from a later seq).
 */
export const checksReads: unique symbol = Symbol.for("june.store.checksReads");

/**
 * Set (non-enumerable) on a store that keeps its turns as frozen records (memoryStore): `[sharedTurn](id,
 * turnId)` is the store's record of a turn, which a session whose own record of it has the very same fields
 * holds instead of its own (one object for the store and every open session).
 */
export const sharedTurn: unique symbol = Symbol.for("june.store.sharedTurn");

export interface TurnSharer {
  [sharedTurn](sessionId: string, turnId: string): StoredTurn | undefined;
}

/** The store's own record of a turn (`[sharedTurn]`), when it keeps them. */
export function sharedTurnOf(store: ChatStore, sessionId: string, turnId: string): StoredTurn | undefined {
  const share = (store as Partial<TurnSharer>)[sharedTurn];
  return typeof share === "function" ? share.call(store, sessionId, turnId) : undefined;
}

/**
 * Set (non-enumerable) on a store that keeps every session's journal in this process, unchanging once written
 * (memoryStore): `[journalEntries](id, toSeq)` is its entries from seq 1 to `toSeq`, at once. A session open on
 * it keeps no list of its own entries: it asks for them the first time they are read.
 */
export const journalEntries: unique symbol = Symbol.for("june.store.journalEntries");

export interface JournalKeeper {
  [journalEntries](sessionId: string, toSeq: number): JournalEntry[];
}

export function keepsJournals(store: ChatStore): store is ChatStore & JournalKeeper {
  return typeof (store as Partial<JournalKeeper>)[journalEntries] === "function";
}

/** A journal as `[openJournal]` hands it over. */
export interface OpenedJournal {
  /** Entries from seq 1, in order; June's `turn-start` and `turn-end` lines not yet parsed past their head. */
  entries: (JournalEntry | EntryLine)[];
  /** Where the journal lives, for the errors of a line parsed later (`JournalCorruptError.location`). */
  location?: string;
}

/** A store that can hand a session its journal lazily (the built-in file store). */
export interface JournalOpener {
  [openJournal](sessionId: string): Promise<OpenedJournal>;
}

export function canOpenJournal(store: ChatStore): store is ChatStore & JournalOpener {
  return typeof (store as Partial<JournalOpener>)[openJournal] === "function";
}

export function storeChecksReads(store: ChatStore): boolean {
  return (store as { [checksReads]?: unknown })[checksReads] === true;
}

/** Marks `store` with `[checksReads]` and maybe `[openJournal]`, `[sharedTurn]`, `[journalEntries]`, non-enumerable (see `openJournal`). */
export function brandStore<T extends ChatStore>(
  store: T,
  options: { open?: JournalOpener[typeof openJournal]; turn?: TurnSharer[typeof sharedTurn]; entries?: JournalKeeper[typeof journalEntries] },
): T {
  Object.defineProperty(store, checksReads, { value: true });
  if (options.open) Object.defineProperty(store, openJournal, { value: options.open });
  if (options.turn) Object.defineProperty(store, sharedTurn, { value: options.turn });
  if (options.entries) Object.defineProperty(store, journalEntries, { value: options.entries });
  return store;
}

/**
 * A `turn-start` or `turn-end` whose head was read and checked (`JournalReadCheck.checkHead`: its seq, the turn
 * it names) and whose rest (its time, a turn's input and context, a reply's status, text, metadata and error)
 * is still its JSON text.
 */
export class EntryLine {
  constructor(
    readonly type: "turn-start" | "turn-end",
    readonly seq: number,
    readonly turnId: string,
    /** A turn-start's parent, if it names one. */
    readonly parentTurnId: string | undefined,
    readonly line: string,
  ) {}

  /** The whole entry, checked as a read checks it; `JournalCorruptError` naming the line when it is damaged. */
  decode(sessionId: string, location: string | undefined): TurnStartEntry | TurnEndEntry {
    const fail = (detail: string): never => {
      throw new JournalCorruptError(sessionId, this.seq, detail, location === undefined ? undefined : { location });
    };
    let value: unknown;
    try {
      value = JSON.parse(this.line);
    } catch {
      value = undefined;
    }
    const problem = entryProblem(value);
    if (problem !== undefined) return fail(problem);
    const entry = value as (TurnStartEntry | TurnEndEntry) & { [MORE_KEY]?: true; parentTurnId?: unknown };
    if (entry.type !== this.type || entry.seq !== this.seq || entry.turnId !== this.turnId || entry.parentTurnId !== this.parentTurnId) {
      return fail(`${this.type}: its fields disagree with its head (a key given twice)`);
    }
    if (MORE_KEY in entry) delete entry[MORE_KEY];
    return entry;
  }
}

/**
 * June's layout of a turn-start's and a turn-end's head (see `encodeEntry`: type, at, seq, then the fields in
 * the order the chat writes them); anything else is parsed whole at once.
 */
const TURN_START_HEAD = /^\{"type":"turn-start","at":"[^"\\]*","seq":([1-9][0-9]{0,15}),"turnId":"([^"\\]+)","input":"(?:[^"\\]|\\.)*"(?:,"parentTurnId":"([^"\\]+)")?,"context":\{/;
const TURN_END_HEAD = /^\{"type":"turn-end","at":"[^"\\]*","seq":([1-9][0-9]{0,15}),"turnId":"([^"\\]+)","status":"/;
const TURN_START_PREFIX = '{"type":"turn-start",';
const TURN_END_PREFIX = '{"type":"turn-end",';
/** Lines shorter than this are parsed at once: deferring them saves little. */
const DEFER_MIN_CHARS = 120;
/**
 * Journals shorter than this are parsed whole at once (under a millisecond): an idle session then holds its
 * records, not its journal's text as well.
 */
const DEFER_MIN_JOURNAL_BYTES = 64 * 1024;

/** The head of a line in June's layout, or undefined (the line is then parsed whole). */
function headOf(text: string, pos: number, line: string): EntryLine | undefined {
  if (line.length < DEFER_MIN_CHARS) return undefined;
  if (text.startsWith(TURN_END_PREFIX, pos)) {
    const head = TURN_END_HEAD.exec(line);
    return head === null ? undefined : new EntryLine("turn-end", Number(head[1]), head[2]!, undefined, line);
  }
  if (text.startsWith(TURN_START_PREFIX, pos)) {
    const head = TURN_START_HEAD.exec(line);
    return head === null ? undefined : new EntryLine("turn-start", Number(head[1]), head[2]!, head[3], line);
  }
  return undefined;
}

/**
 * Decodes a whole journal file for a session opening it: as `decodeJournal` (a torn tail left out, the same
 * `JournalCorruptError` for a damaged line before it), but June's own `turn-start` and `turn-end` lines stay
 * text past their head (`EntryLine`; their lines are slices of the journal's text, which they keep alive
 * until the session parses them), in a journal of 64 KB or more. The first turn-start is parsed (a listing's
 * title). Returns the entries,
 * the readable length and the last entry (parsed).
 */
export function decodeJournalForOpen(
  buf: Buffer,
  sessionId: string,
  location?: string,
): { entries: (JournalEntry | EntryLine)[]; validBytes: number; last: JournalEntry } {
  const where = location === undefined ? undefined : { location };
  const tail = analyzeTail(buf);
  if (tail === "corrupt") return strictDecode(buf, sessionId, where);
  const validBytes = tail.validBytes;
  if (validBytes === 0 || tail.last === undefined) throw new JournalCorruptError(sessionId, 1, "no session entry", where);
  const bytes = buf.subarray(0, validBytes);
  // One string for the whole journal; ASCII (the common case) copies instead of decoding.
  const text = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const check = new JournalReadCheck({ sessionId, ...where });
  const entries: (JournalEntry | EntryLine)[] = [];
  // Deferring starts after the first turn-start (parsed whole for a listing's title), in long journals only.
  let started = false;
  const defer = validBytes >= DEFER_MIN_JOURNAL_BYTES;
  for (let pos = 0, end = text.length; pos < end; ) {
    const nl = text.indexOf("\n", pos);
    const line = text.slice(pos, nl);
    const head = started && defer ? headOf(text, pos, line) : undefined;
    if (head !== undefined) {
      check.checkHead(head);
      entries.push(head);
    } else {
      const entry = stripMarker(check.check(parseLine(line)));
      if (entry.type === "turn-start") started = true;
      entries.push(entry);
    }
    pos = nl + 1;
  }
  // The last entry is parsed by analyzeTail; it must be the one read here.
  const last = entries[entries.length - 1]!;
  if (last.seq !== tail.last.seq) throw new JournalCorruptError(sessionId, entries.length, "the last entry disagrees with itself", where);
  return { entries, validBytes, last: tail.last };
}

/** A corrupt tail: the codec decodes every complete line, so that the error names the first bad one. */
function strictDecode(buf: Buffer, sessionId: string, where: { location: string } | undefined): never {
  decodeJournal(buf, sessionId, 1, where?.location);
  // analyzeTail saw an unreadable line that is not torn: a full check always finds it.
  throw new JournalCorruptError(sessionId, buf.toString("utf8").split("\n").length - 1, "not a JSON object", where);
}
