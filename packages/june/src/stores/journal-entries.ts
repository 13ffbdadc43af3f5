import { entryProblem, isEntryType, linkProblem } from "./journal-shape.js";
import { jsonCopy } from "./json-copy.js";
import type { JournalEntry, NewJournalEntry } from "./types.js";

/** Entries ready to store: `seq` and `at` assigned, as JSON lines and as their parsed (JSON-safe) form. */
export interface PreparedEntries {
  entries: JournalEntry[];
  /** One JSON text per entry, no newline; the stored form of `entries` (none when not asked for: `lines: false`). */
  lines: string[];
}

/**
 * Validates what a writer hands to `append` and gives each entry its `seq` (from `expectedSeq + 1`) and
 * `at` (now, unless given). Every field goes through JSON, so what a store keeps is what it reads back.
 * Throws `TypeError` naming the entry and what is wrong with it (see `entryProblem`) before anything is written.
 * With `lines: false` (a store that keeps no text: memoryStore) the entries are the same JSON-safe copies, made
 * without the text (`jsonCopy`), and `lines` is empty.
 */
export function prepareEntries(entries: readonly NewJournalEntry[], expectedSeq: number, now: Date, { lines: withLines = true }: { lines?: boolean } = {}): PreparedEntries {
  if (!Array.isArray(entries)) throw new TypeError("append: `entries` must be an array of journal entries");
  assertSeq(expectedSeq);
  const at = now.toISOString();
  const lines: string[] = [];
  const out: JournalEntry[] = [];
  entries.forEach((entry, i) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new TypeError(`append: entry ${i} is not an object`);
    }
    if (!isEntryType(entry.type)) {
      throw new TypeError(`append: entry ${i} has an unknown type ${JSON.stringify(String(entry.type))}`);
    }
    if (entry.type === "session") {
      throw new TypeError(`append: entry ${i} is a "session" entry; those are written by createSession`);
    }
    if (entry.at !== undefined && (typeof entry.at !== "string" || Number.isNaN(Date.parse(entry.at)))) {
      throw new TypeError(`append: entry ${i} (${entry.type}) has an invalid \`at\`: use an ISO time`);
    }
    const ordered = storedOrder(entry, entry.at ?? at, expectedSeq + i + 1);
    let stored: unknown;
    if (withLines) {
      const line = stringifyEntry(ordered, entry.type, `append: entry ${i}`);
      stored = JSON.parse(line);
      lines.push(line);
    } else stored = copyEntry(ordered, entry.type, `append: entry ${i}`);
    // Checked in its stored form, as a read checks it: a store never writes what would read back as corrupt.
    const problem = entryProblem(stored);
    if (problem !== undefined) throw new TypeError(`append: entry ${i} (${problem})`);
    out.push(stored as JournalEntry);
  });
  return { entries: out, lines };
}

/**
 * Checks the links of entries about to be appended, as a read of the journal checks them (`linkProblem`):
 * every turn an entry names must have started, in the journal (`started`) or earlier in the same batch.
 * Throws `TypeError` naming the first entry that names a turn that never started; a store calls it before it
 * writes anything, so it never writes what its next read would refuse.
 */
export function checkLinks(entries: readonly JournalEntry[], started: (turnId: string) => boolean): void {
  let inBatch: Set<string> | undefined;
  entries.forEach((entry, i) => {
    const problem = linkProblem(entry, (id) => inBatch?.has(id) === true || started(id));
    if (problem !== undefined) throw new TypeError(`append: entry ${i} (${problem})`);
    if (entry.type === "turn-start") (inBatch ??= new Set()).add(entry.turnId);
  });
}

/** The `session` entry that opens a journal (its `owner`, when given, checked by `checkOwner`). */
export function prepareSessionEntry(id: string, metadata: unknown, now: Date, owner?: unknown): PreparedEntries {
  if (metadata !== undefined && (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))) {
    throw new TypeError("createSession: `metadata` must be a plain object");
  }
  checkOwner(owner, "createSession");
  const entry = { type: "session", at: now.toISOString(), seq: 1, id, owner, metadata } as JournalEntry;
  const line = encodeEntry(entry, "createSession: the session entry");
  return { entries: [JSON.parse(line) as JournalEntry], lines: [line] };
}

/**
 * The stored JSON of one entry, keys `type`, `at`, `seq` first (file summaries count turns by that prefix).
 * JSON.stringify never emits a raw newline, so one entry is always one line.
 */
export function encodeEntry(entry: JournalEntry, what: string): string {
  return stringifyEntry(storedOrder(entry, entry.at, entry.seq), entry.type, what);
}

/**
 * The entry's own fields after `type`, `at` and `seq`, in a new object. A loop, not `{ type, at, seq, ...rest }`
 * or `{ ...entry, at, seq }`: V8 (Node 20) builds an object literal that mixes a spread with keys of its own on a
 * slow path, ~1.3 µs an entry where this takes a few hundredths.
 */
function storedOrder(entry: object, at: string | undefined, seq: number): Record<string, unknown> {
  // No prototype: a field named `__proto__` stays a field, as a literal's spread would keep it.
  const out = Object.create(null) as Record<string, unknown>;
  out.type = (entry as { type?: unknown }).type;
  out.at = at;
  out.seq = seq;
  const fields = entry as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (key !== "type" && key !== "at" && key !== "seq") out[key] = fields[key];
  return out;
}

function copyEntry(ordered: Record<string, unknown>, type: unknown, what: string): unknown {
  try {
    return jsonCopy(ordered);
  } catch (error) {
    throw new TypeError(`${what} (${type}) is not JSON-serializable: ${(error as Error).message}`, { cause: error });
  }
}

function stringifyEntry(ordered: Record<string, unknown>, type: unknown, what: string): string {
  try {
    return JSON.stringify(ordered);
  } catch (error) {
    throw new TypeError(`${what} (${type}) is not JSON-serializable: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The longest owner a session takes (an app's user id, an email, a tenant-qualified name). */
export const OWNER_MAX_CHARS = 1_000;

/**
 * Throws `TypeError` naming `method` unless `owner` is undefined or a string of 1 to `OWNER_MAX_CHARS`
 * characters that every store keeps exactly: well-formed Unicode (no lone surrogate, which PostgreSQL and
 * SQLite would keep as U+FFFD, making two owners one) and no NUL (which PostgreSQL refuses).
 */
export function checkOwner(owner: unknown, method: string): asserts owner is string | undefined {
  if (owner === undefined) return;
  if (typeof owner !== "string" || owner.length === 0 || owner.length > OWNER_MAX_CHARS) {
    throw new TypeError(`${method}: \`owner\` must be a string of 1 to ${OWNER_MAX_CHARS} characters`);
  }
  const problem = unstorableText(owner);
  if (problem !== undefined) throw new TypeError(`${method}: \`owner\` ${problem}`);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a store could not keep `text` exactly (a lone surrogate, a NUL), or undefined when it can: what an
 * owner, or an id that is matched by equality, must not hold.
 */
export function unstorableText(text: string): string | undefined {
  if (text.includes("\u0000")) return "holds a NUL character (\\u0000)";
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `is not well-formed Unicode: a lone surrogate (\\u${lone[0].charCodeAt(0).toString(16)}) at index ${lone.index}`;
  return undefined;
}

/** Throws `TypeError` unless `seq` is a whole number >= 0. */
export function assertSeq(seq: unknown, what = "expectedSeq"): asserts seq is number {
  if (typeof seq !== "number" || !Number.isInteger(seq) || seq < 0) {
    throw new TypeError(`append: \`${what}\` must be a whole number >= 0 (the seq of the last entry seen)`);
  }
}
