import { JournalCorruptError } from "./errors.js";
import type { JournalEntry, JournalEntryType } from "./types.js";

/**
 * What a well-formed journal entry is, checked the same way when a writer appends it (a `TypeError`) and
 * when a store reads it back (a `JournalCorruptError`): a store never writes what it would refuse to read,
 * and a damaged entry (one changed character that still parses) is named rather than folded into a
 * history that silently lacks turns.
 */

// A record (not an array) so that adding a member to the union without listing it here fails to compile.
const ENTRY_TYPES: Record<JournalEntryType, true> = {
  session: true,
  "turn-start": true,
  steer: true,
  "turn-end": true,
  "turn-suspend": true,
  approval: true,
  feedback: true,
  summary: true,
  checkout: true,
  rename: true,
};

/** True when `type` names a journal entry. */
export function isEntryType(type: unknown): type is JournalEntryType {
  return typeof type === "string" && Object.prototype.hasOwnProperty.call(ENTRY_TYPES, type);
}

const STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "canceled", "blocked"]);

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string => typeof value === "string" && value.length > 0;
const optional = (value: unknown, check: (v: unknown) => boolean) => value === undefined || check(value);
const isString = (value: unknown) => typeof value === "string";
const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString);

/**
 * Why `value` is not a well-formed journal entry (`seq` and `at` included), or `undefined` when it is.
 * Fields a later version may add are allowed; the ones June reads must have their type.
 */
export function entryProblem(value: unknown): string | undefined {
  if (isCommonEntry(value)) return undefined;
  if (!isObject(value)) return "not a JSON object";
  const type = value.type;
  if (!isEntryType(type)) return `unknown entry type ${JSON.stringify(type)}`;
  if (typeof value.at !== "string" || Number.isNaN(Date.parse(value.at))) return `${type}: \`at\` is not an ISO time`;
  if (typeof value.seq !== "number" || !Number.isInteger(value.seq) || value.seq < 1) return `${type}: \`seq\` is not a whole number >= 1`;
  const problem = fieldsProblem(type, value);
  return problem === undefined ? undefined : `${type}: ${problem}`;
}

/**
 * True for a well-formed `turn-start` or `turn-end` in its common form (no `error`, context turn ids all
 * strings): what `entryProblem` accepts, checked in one function with no calls but builtins. A journal is
 * mostly these, and a process opening one runs this code cold (not yet optimized), where every call counts.
 * False says only "not this form": `entryProblem` then checks the entry in detail.
 */
function isCommonEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const e = value as Fields;
  const type = e.type;
  if (type !== "turn-end" && type !== "turn-start") return false;
  const { at, seq, turnId } = e;
  if (typeof at !== "string" || typeof seq !== "number" || !Number.isInteger(seq) || seq < 1) return false;
  if (typeof turnId !== "string" || turnId === "") return false;
  if (type === "turn-end") {
    const { status, text, metadata: m } = e;
    if (typeof status !== "string" || !STATUSES.has(status)) return false;
    if (text !== undefined && typeof text !== "string") return false;
    if (e.error !== undefined) return false;
    if (m !== undefined) {
      if (typeof m !== "object" || m === null || Array.isArray(m)) return false;
      const responder = (m as Fields).responder;
      if (typeof responder !== "object" || responder === null || Array.isArray(responder)) return false;
    }
  } else {
    const { input, parentTurnId: parent, context: c } = e;
    if (typeof input !== "string" || e.files !== undefined) return false;
    if (parent !== undefined && (typeof parent !== "string" || parent === "")) return false;
    if (typeof c !== "object" || c === null || Array.isArray(c)) return false;
    const { builder, turnIds, completedThrough, summaryId } = c as Fields;
    if (typeof builder !== "string" || !Array.isArray(turnIds)) return false;
    for (let i = 0; i < turnIds.length; i++) if (typeof turnIds[i] !== "string") return false;
    if (completedThrough !== undefined && (typeof completedThrough !== "string" || completedThrough === "")) return false;
    if (summaryId !== undefined && typeof summaryId !== "string") return false;
  }
  return ISO_AT.test(at) || !Number.isNaN(Date.parse(at));
}

/**
 * The times June writes (`toISOString()`), fields in range: every string it matches `Date.parse` reads as a
 * time too (checked over every month 00–13, day 00–32, hour, minute and second at their bounds, with 0 to 4
 * fraction digits, on Node 20 and 24), and it is a few times cheaper. What it does not match goes to
 * `Date.parse`, so the check means exactly what it did.
 */
const ISO_AT = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,3})?Z$/;

function fieldsProblem(type: JournalEntry["type"], e: Fields): string | undefined {
  switch (type) {
    case "session":
      if (!isId(e.id)) return "needs its session `id`";
      if (!optional(e.owner, isId)) return "`owner` must be a non-empty string";
      if (!optional(e.metadata, isObject)) return "`metadata` must be an object";
      return undefined;
    case "turn-start":
      if (!isId(e.turnId)) return "needs a `turnId`";
      if (!isString(e.input)) return "needs an `input` string";
      if (!optional(e.parentTurnId, isId)) return "`parentTurnId` must be a turn id";
      if (!optional(e.files, isFileRefs)) return "`files` must be file references ({ id, mediaType, size, sha256, filename? })";
      return contextProblem(e.context);
    case "steer":
      if (!isId(e.turnId)) return "needs a `turnId`";
      if (!isString(e.input)) return "needs an `input` string";
      if (typeof e.atChar !== "number" || !Number.isInteger(e.atChar) || e.atChar < 0) return "`atChar` must be a whole number >= 0";
      return undefined;
    case "turn-end":
      if (!isId(e.turnId)) return "needs a `turnId`";
      if (!STATUSES.has(e.status as string)) return `unknown status ${JSON.stringify(e.status)}`;
      if (!optional(e.text, isString)) return "`text` must be a string";
      if (!optional(e.reasoning, isString)) return "`reasoning` must be a string";
      if (!optional(e.sources, (list) => Array.isArray(list) && list.every((source) => isObject(source) && isString(source.id) && isString(source.sourceType)))) {
        return "`sources` must list each source's `id` and `sourceType`";
      }
      if (!optional(e.metadata, (m) => isObject(m) && isObject(m.responder))) return "`metadata` must be an object with `responder`";
      if (!optional(e.error, (x) => isObject(x) && isString(x.name) && isString(x.message))) return "`error` must have `name` and `message`";
      return undefined;
    case "turn-suspend":
      if (!isId(e.turnId)) return "needs a `turnId`";
      if (!Array.isArray(e.requests) || !e.requests.every((r) => isObject(r) && isId(r.id) && isId(r.toolName))) {
        return "`requests` must list each request's `id` and `toolName`";
      }
      return undefined;
    case "approval":
      return approvalProblem(e);
    case "feedback":
      if (!isId(e.turnId)) return "needs a `turnId`";
      if (typeof e.score !== "number" || !Number.isFinite(e.score)) return "`score` must be a number";
      if (!optional(e.comment, isString)) return "`comment` must be a string";
      if (!optional(e.tags, isStrings)) return "`tags` must be strings";
      return undefined;
    case "summary":
      if (!isId(e.throughTurnId)) return "needs a `throughTurnId`";
      if (!isString(e.text)) return "needs a `text` string";
      return undefined;
    case "checkout":
      if (!optional(e.turnId, isId)) return "`turnId` must be a turn id";
      return undefined;
    case "rename":
      if (!isId(e.title)) return "needs a non-empty `title` string";
      return undefined;
    default: {
      const unknown: never = type;
      return `unknown entry type ${JSON.stringify(unknown)}`;
    }
  }
}

function isFileRefs(files: unknown): boolean {
  return (
    Array.isArray(files) &&
    files.every(
      (f) =>
        isObject(f) &&
        isId(f.id) &&
        isId(f.mediaType) &&
        isId(f.sha256) &&
        typeof f.size === "number" &&
        Number.isInteger(f.size) &&
        f.size >= 0 &&
        optional(f.filename, isString),
    )
  );
}

function contextProblem(context: unknown): string | undefined {
  if (!isObject(context)) return "needs its `context` provenance";
  if (!isString(context.builder)) return "`context.builder` must be a string";
  if (!isStrings(context.turnIds)) return "`context.turnIds` must be turn ids";
  if (!optional(context.completedThrough, isId)) return "`context.completedThrough` must be a turn id";
  if (!optional(context.summaryId, isString)) return "`context.summaryId` must be a string";
  if (!optional(context.filesLeftOut, isStrings)) return "`context.filesLeftOut` must be file ids";
  if (!optional(context.memory, isObject)) return "`context.memory` must be an object";
  return undefined;
}

/**
 * An approval decides one request (`turnId` and `requestId`), or, with neither, revokes a tool's approval
 * for the session (`approved: false`, `remember: "session"`).
 */
function approvalProblem(e: Fields): string | undefined {
  if (!isId(e.toolName)) return "needs a non-empty `toolName`";
  if (typeof e.approved !== "boolean") return "needs a boolean `approved`";
  if (e.remember !== undefined && e.remember !== "session") return '`remember` must be "session" when given';
  if (e.decidedBy !== undefined && e.decidedBy !== "policy") return '`decidedBy` must be "policy" when given';
  if (!optional(e.reason, isString)) return "`reason` must be a string";
  if (e.edited !== undefined && (e.edited !== true || e.approved !== true)) return "`edited` must be true on an approval when given";
  if (e.turnId !== undefined || e.requestId !== undefined) {
    return isString(e.turnId) && isString(e.requestId) ? undefined : "a decision needs both `turnId` and `requestId` as strings";
  }
  if (e.approved || e.remember !== "session") {
    return 'without `turnId` and `requestId` it must be a revocation (approved: false, remember: "session")';
  }
  return undefined;
}

/**
 * Why a well-formed entry does not fit the journal before it, or `undefined`: every turn it names (a
 * parent, the turn a steer, an end, feedback, a summary or a checkout is about) must have started earlier.
 * A damaged id would otherwise make earlier turns vanish from the branch, or a reply from its turn.
 * `hasTurn` says whether a `turn-start` with that id came before.
 */
export function linkProblem(entry: JournalEntry, hasTurn: (turnId: string) => boolean): string | undefined {
  const missing = (field: string, id: string) => `${entry.type}: \`${field}\` "${id}" names no earlier turn`;
  switch (entry.type) {
    case "session":
    case "rename":
      return undefined;
    case "turn-start":
      return entry.parentTurnId !== undefined && !hasTurn(entry.parentTurnId) ? missing("parentTurnId", entry.parentTurnId) : undefined;
    case "steer":
    case "turn-end":
    case "turn-suspend":
    case "feedback":
      return hasTurn(entry.turnId) ? undefined : missing("turnId", entry.turnId);
    case "approval":
    case "checkout":
      return entry.turnId !== undefined && !hasTurn(entry.turnId) ? missing("turnId", entry.turnId) : undefined;
    case "summary":
      return hasTurn(entry.throughTurnId) ? undefined : missing("throughTurnId", entry.throughTurnId);
    default: {
      const unknown: never = entry;
      return unknown;
    }
  }
}

/**
 * Checks entries as a store reads them, in order: each well-formed, seqs consecutive from `fromSeq`, the first
 * of a whole journal its `session` entry and (on a whole journal) every turn id named after it started.
 * Throws `JournalCorruptError` naming the session, the line (the seq) and `location` (a file) when given.
 */
export class JournalReadCheck {
  readonly #sessionId: string;
  readonly #location: string | undefined;
  readonly #turns: Set<string> | undefined;
  #next: number;

  constructor(options: { sessionId: string; fromSeq?: number; location?: string }) {
    this.#sessionId = options.sessionId;
    this.#location = options.location;
    this.#next = options.fromSeq ?? 1;
    // Links are checked only on a whole journal: a read from a later seq does not see the turns before it.
    this.#turns = this.#next === 1 ? new Set() : undefined;
  }

  /** Checks the next entry (its line: `seq`) and returns it as an entry. */
  check(value: unknown): JournalEntry {
    const line = this.#next++;
    const problem = entryProblem(value);
    if (problem !== undefined) this.#fail(line, problem);
    const entry = value as JournalEntry;
    if (entry.seq !== line) this.#fail(line, `seq ${entry.seq} where ${line} was expected`);
    if (line === 1 && entry.type !== "session") this.#fail(line, `the first entry is "${entry.type}", not "session"`);
    if (line > 1 && entry.type === "session") this.#fail(line, 'a second "session" entry');
    const turns = this.#turns;
    if (turns) {
      const broken = linkProblem(entry, (id) => turns.has(id));
      if (broken !== undefined) this.#fail(line, broken);
      if (entry.type === "turn-start") turns.add(entry.turnId);
    }
    return entry;
  }

  /**
   * Checks the next entry when only its head was read (a line kept as text, see `EntryLine`): its seq, and
   * that the turns it names started (a turn-start's parent, a turn-end's turn). The rest is checked when it
   * is parsed.
   */
  checkHead(head: { type: "turn-start" | "turn-end"; seq: number; turnId: string; parentTurnId?: string | undefined }): void {
    const line = this.#next++;
    if (head.seq !== line) this.#fail(line, `seq ${head.seq} where ${line} was expected`);
    if (line === 1) this.#fail(line, `the first entry is "${head.type}", not "session"`);
    const turns = this.#turns;
    if (!turns) return;
    const named = head.type === "turn-start" ? head.parentTurnId : head.turnId;
    if (named !== undefined && !turns.has(named)) {
      this.#fail(line, `${head.type}: \`${head.type === "turn-start" ? "parentTurnId" : "turnId"}\` "${named}" names no earlier turn`);
    }
    if (head.type === "turn-start") turns.add(head.turnId);
  }

  #fail(line: number, detail: string): never {
    throw new JournalCorruptError(this.#sessionId, line, detail, this.#location === undefined ? undefined : { location: this.#location });
  }
}

/**
 * Parses and checks the stored JSON texts of a read from `fromSeq` (a database store's rows, in seq order)
 * with `JournalReadCheck`; a text that is not JSON is corrupt too.
 */
export function decodeStoredEntries(
  texts: readonly string[],
  options: { sessionId: string; fromSeq: number; location: string },
): JournalEntry[] {
  const check = new JournalReadCheck(options);
  return texts.map((text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    return check.check(value);
  });
}
