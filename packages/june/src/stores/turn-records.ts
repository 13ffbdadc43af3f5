import type { ContextProvenance, FileRef, TurnEndEntry, TurnMetadata, TurnStartEntry } from "./types.js";
import type { ReplySource } from "../ai-sdk/model-asides.js";

/**
 * A turn as a journal folds its entries (the chat's `TurnRecord`): what its turn-start and turn-end say, and
 * what later entries changed (steers, feedback, a suspend). A session's records and memoryStore's turns are
 * these, frozen, so that an open session and the store can hold the very same objects.
 */
export interface StoredTurn {
  readonly id: string;
  readonly input: string;
  readonly steers: readonly { readonly input: string; readonly atChar: number }[];
  readonly status: string;
  readonly startedAt: string;
  readonly parentTurnId?: string;
  readonly context?: ContextProvenance;
  /** The files the turn sent (references), as its turn-start says. */
  readonly files?: readonly FileRef[];
  readonly endedAt?: string;
  readonly text?: string;
  readonly reasoning?: string;
  readonly sources?: readonly ReplySource[];
  readonly metadata?: TurnMetadata;
  readonly error?: { name: string; message: string };
  readonly feedback?: { score: number; comment?: string; tags?: string[] };
}

/** The steers of a turn that has none (most): one frozen list for all of them. */
const NO_STEERS: JournalTurn["steers"] = Object.freeze([]) as unknown as JournalTurn["steers"];

/**
 * A turn record being made: a class, so that the fields a turn gets later (its parent, context, end, reply)
 * are stored in the object rather than in a separate property array. Only the fields a turn has are set (no
 * keys holding `undefined`). `input` is undefined only until a deferred turn-start is parsed. Frozen once
 * made (`freezeTurn`); a change is made on a copy (`thawTurn`).
 */
export class JournalTurn {
  declare parentTurnId?: string;
  declare context?: ContextProvenance;
  declare files?: FileRef[];
  declare endedAt?: string;
  declare text?: string;
  declare reasoning?: string;
  declare sources?: ReplySource[];
  declare metadata?: TurnMetadata;
  declare error?: { name: string; message: string };
  declare feedback?: { score: number; comment?: string; tags?: string[] };
  id: string;
  input: string;
  steers: { input: string; atChar: number }[] = NO_STEERS;
  status: string = "interrupted";
  startedAt: string;

  constructor(id: string, startedAt: string | undefined) {
    this.id = id;
    this.input = undefined as unknown as string;
    this.startedAt = startedAt as string;
  }
}

/** A new turn's record: from its turn-start (`start`), or from a line's head (input, context and time to come). */
export function newTurn(turnId: string, parentTurnId: string | undefined, start: TurnStartEntry | undefined): JournalTurn {
  const turn = new JournalTurn(turnId, start?.at);
  if (parentTurnId !== undefined) turn.parentTurnId = parentTurnId;
  if (start) {
    turn.input = start.input;
    turn.context = start.context;
    if (start.files !== undefined) turn.files = start.files;
  }
  return turn;
}

/** A copy of a record to change, its fields in the same order. */
export function thawTurn(record: StoredTurn): JournalTurn {
  const turn = new JournalTurn(record.id, record.startedAt);
  for (const key in record) (turn as unknown as Record<string, unknown>)[key] = (record as unknown as Record<string, unknown>)[key];
  return turn;
}

/**
 * Freezes a record: records are handed out as they are. What it holds (its context, metadata, error) is the
 * journal's, shared and read-only as well, and frozen by a store that freezes its entries (memoryStore); it
 * is not frozen here, which would cost a long session's first read of its records ~1 µs a turn.
 */
export function freezeTurn(turn: JournalTurn): StoredTurn {
  return Object.freeze(turn);
}

/** A turn-end's status, time, text, reasoning, sources, metadata and error on its turn. */
export function endTurn(turn: JournalTurn, entry: TurnEndEntry): void {
  turn.status = entry.status;
  turn.endedAt = entry.at;
  if (entry.text !== undefined) turn.text = entry.text;
  if (entry.reasoning !== undefined) turn.reasoning = entry.reasoning;
  if (entry.sources !== undefined) turn.sources = entry.sources;
  if (entry.metadata !== undefined) turn.metadata = entry.metadata;
  if (entry.error !== undefined) turn.error = entry.error;
}

/** Every field a record may have. */
const TURN_FIELDS = ["id", "input", "steers", "status", "startedAt", "parentTurnId", "context", "files", "endedAt", "text", "reasoning", "sources", "metadata", "error", "feedback"] as const;

/**
 * True when two records hold the very same values in every field (a field a record does not have reads
 * `undefined`, which no record holds). Both are made by `newTurn`, `thawTurn` and `endTurn`, in that order.
 */
export function sameTurn(a: StoredTurn, b: StoredTurn): boolean {
  if (a === b) return true;
  for (const field of TURN_FIELDS) if (a[field] !== b[field]) return false;
  return true;
}

const START_KEYS = ["type", "at", "seq", "turnId", "input", "parentTurnId", "context", "files"];
const END_KEYS = ["type", "at", "seq", "turnId", "status", "text", "reasoning", "sources", "metadata", "error"];

/** True when `entry`'s keys are some of `keys`, in that order, none holding `undefined` (June's layout). */
function inLayout(entry: object, keys: readonly string[]): boolean {
  let k = 0;
  for (const key in entry) {
    while (k < keys.length && keys[k] !== key) k++;
    if (k === keys.length || (entry as Record<string, unknown>)[key] === undefined) return false;
    k++;
  }
  return true;
}

/**
 * Whether `record` holds everything its turn-start says (what `startEntryOf` rebuilds): `true` when the entry
 * names the record's parent (or neither has one), `false` when it names none and the record's parent is the
 * branch it continued, undefined when the record does not say it all.
 */
export function startSaysAll(entry: TurnStartEntry, record: StoredTurn): boolean | undefined {
  const says =
    record.id === entry.turnId &&
    record.input === entry.input &&
    record.context === entry.context &&
    record.files === entry.files &&
    record.startedAt === entry.at &&
    (entry.parentTurnId === undefined || record.parentTurnId === entry.parentTurnId) &&
    inLayout(entry, START_KEYS);
  if (!says) return undefined;
  return record.parentTurnId === entry.parentTurnId;
}

/** True when `record` holds everything its turn-end says (what `endEntryOf` rebuilds). */
export function endSaysAll(entry: TurnEndEntry, record: StoredTurn): boolean {
  return (
    record.status === entry.status &&
    record.endedAt === entry.at &&
    record.text === entry.text &&
    record.reasoning === entry.reasoning &&
    record.sources === entry.sources &&
    record.metadata === entry.metadata &&
    record.error === entry.error &&
    inLayout(entry, END_KEYS)
  );
}

/** A turn-start from its record; `named`: the entry named the record's parent. Frozen. */
export function startEntryOf(record: StoredTurn, seq: number, named: boolean): TurnStartEntry {
  const entry = { type: "turn-start", at: record.startedAt, seq, turnId: record.id, input: record.input } as TurnStartEntry;
  if (named && record.parentTurnId !== undefined) entry.parentTurnId = record.parentTurnId;
  if (record.context !== undefined) entry.context = record.context;
  if (record.files !== undefined) entry.files = record.files as FileRef[];
  return Object.freeze(entry);
}

/** A turn-end from its record. Frozen. */
export function endEntryOf(record: StoredTurn, seq: number): TurnEndEntry {
  const entry: TurnEndEntry = { type: "turn-end", at: record.endedAt!, seq, turnId: record.id, status: record.status as TurnEndEntry["status"] };
  if (record.text !== undefined) entry.text = record.text;
  if (record.reasoning !== undefined) entry.reasoning = record.reasoning;
  if (record.sources !== undefined) entry.sources = record.sources as ReplySource[];
  if (record.metadata !== undefined) entry.metadata = record.metadata;
  if (record.error !== undefined) entry.error = record.error;
  return Object.freeze(entry);
}
