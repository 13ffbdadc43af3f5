import type { FeedbackEntry, SteerEntry, TurnEndEntry, TurnStartEntry } from "../stores/types.js";
import { endTurn, freezeTurn, newTurn, thawTurn, type JournalTurn, type StoredTurn } from "../stores/turn-records.js";
import type { TurnRecord } from "./types.js";
import { isUnfinished } from "./unfinished.js";

/** Up to this many turns, a record is found by looking through them (no map of records by id). */
const SCAN_MAX = 16;

/**
 * A session's turn records as its journal folds them (`SessionJournal`): every turn in the order of its first
 * turn-start, the current branch and its leaf, how many turns are unfinished, and a record by id. The records
 * are frozen and shared: a change to a turn (its end, a steer, feedback) replaces its record (`revise`). A
 * record made from a line's head is left unfrozen until the line is parsed (`open`, `seal`).
 */
export class JournalRecords {
  /** Every turn, oldest first. A short journal's array is replaced, not grown (`fit`). */
  list: TurnRecord[] = [];
  /** How many turns are `interrupted` or `suspended` (started, not ended). */
  unfinished = 0;
  /** The records by id, made once there are more than `SCAN_MAX` (a small session looks through `list`). */
  #byId: Map<string, TurnRecord> | undefined;
  /**
   * The current branch: the turns from the first to `#leaf`, following `parentTurnId`; undefined while it is
   * every record in order (a session that never branched), which `list` then says.
   */
  #branch: TurnRecord[] | undefined;
  #leaf: TurnRecord | undefined;

  /** The current branch's turns, oldest first. */
  get branch(): readonly TurnRecord[] {
    return this.#branch ?? this.list;
  }

  /** The current branch's last turn (what a plain send continues), if any. */
  get leaf(): TurnRecord | undefined {
    return this.#leaf;
  }

  /** Keeps `list` at its exact length (a copy). */
  fit(): void {
    this.list = this.list.slice();
  }

  find(turnId: string): TurnRecord | undefined {
    if (this.#byId) return this.#byId.get(turnId);
    const records = this.list;
    for (let i = records.length - 1; i >= 0; i--) if (records[i]!.id === turnId) return records[i];
    return undefined;
  }

  has(turnId: string): boolean {
    return this.find(turnId) !== undefined;
  }

  /** The turns from the first one to `turnId` (included), oldest first; empty for an unknown or absent id. */
  pathTo(turnId: string | undefined): TurnRecord[] {
    const path: TurnRecord[] = [];
    for (let record = turnId === undefined ? undefined : this.find(turnId); record; ) {
      path.push(record);
      record = record.parentTurnId === undefined ? undefined : this.find(record.parentTurnId);
    }
    return path.reverse();
  }

  /** The turns whose parent is `parentTurnId` (the first turns for `undefined`), in journal order. */
  children(parentTurnId: string | undefined): TurnRecord[] {
    return this.list.filter((record) => record.parentTurnId === parentTurnId);
  }

  /** The newest turn on a branch through `turnId` (the last started of it and its descendants). */
  newestThrough(turnId: string): TurnRecord | undefined {
    // A turn always starts after its parent, so one pass in journal order finds every descendant.
    const through = new Set<string>();
    let newest: TurnRecord | undefined;
    for (const record of this.list) {
      if (record.id === turnId || (record.parentTurnId !== undefined && through.has(record.parentTurnId))) {
        through.add(record.id);
        newest = record;
      }
    }
    return newest;
  }

  /**
   * A turn-start's record, made the current branch's leaf (its input, context and time not yet known when
   * `start` is undefined: from a line's head); undefined when the turn has one already.
   */
  start(entry: { turnId: string; parentTurnId?: string | undefined }, start: TurnStartEntry | undefined): TurnRecord | undefined {
    if (this.has(entry.turnId)) return undefined;
    // No parentTurnId: the turn continues the current branch (an older journal is one line).
    const parent = entry.parentTurnId ?? this.#leaf?.id;
    const turn = newTurn(entry.turnId, parent, start);
    // A record from a line's head is not handed out before the line is parsed (which freezes it).
    const record = (start ? freezeTurn(turn) : turn) as StoredTurn as TurnRecord;
    // A new turn's branch becomes current: while every turn continues the one before, the branch is them all.
    const continues = parent === this.#leaf?.id;
    if (this.#branch === undefined && !continues) this.#branch = this.list.slice();
    this.list.push(record);
    this.unfinished++;
    if (this.#byId) this.#byId.set(entry.turnId, record);
    else if (this.list.length > SCAN_MAX) this.#byId = new Map(this.list.map((r) => [r.id, r]));
    if (this.#branch !== undefined) {
      if (continues && parent !== undefined) this.#branch.push(record);
      else this.#branch = this.pathTo(record.id);
    }
    this.#leaf = record;
    return record;
  }

  /** Makes the branch through `turnId` current (no turn: before the first); an unknown turn changes nothing. */
  checkout(turnId: string | undefined): void {
    const leaf = turnId === undefined ? undefined : this.find(turnId);
    if (turnId !== undefined && !leaf) return;
    if (this.#branch === undefined && leaf === this.list[this.list.length - 1]) return;
    this.#leaf = leaf;
    this.#branch = this.pathTo(leaf?.id);
  }

  /** Puts `next` where `record` was (the records, the branch, the leaf). */
  replace(record: TurnRecord, next: TurnRecord): void {
    const records = this.list;
    records[records.lastIndexOf(record)] = next;
    const branch = this.#branch;
    if (branch) {
      const i = branch.lastIndexOf(record);
      if (i !== -1) branch[i] = next;
    }
    this.#byId?.set(next.id, next);
    if (this.#leaf === record) this.#leaf = next;
  }

  /** Replaces a turn's record with a copy that `change` changed (or changes one not frozen yet: see `start`). */
  revise(turnId: string, change: (turn: JournalTurn) => void): void {
    const record = this.find(turnId);
    if (!record) return;
    if (!Object.isFrozen(record)) return change(record as JournalTurn);
    const turn = thawTurn(record);
    change(turn);
    this.replace(record, freezeTurn(turn) as TurnRecord);
  }

  /** Ends `record`'s turn as `entry` says; returns its new record. */
  end(record: TurnRecord, entry: TurnEndEntry): TurnRecord {
    if (isUnfinished(record.status)) this.unfinished--;
    this.revise(record.id, (turn) => endTurn(turn, entry));
    return this.find(record.id)!;
  }

  steer(entry: SteerEntry): void {
    this.revise(entry.turnId, (turn) => {
      turn.steers = Object.freeze([...turn.steers, Object.freeze({ input: entry.input, atChar: entry.atChar })]) as TurnRecord["steers"];
    });
  }

  /** A suspend never overrides an end (a resumed turn that ended, read in any order of processes). */
  suspend(turnId: string): void {
    const record = this.find(turnId);
    if (record && record.status === "interrupted") this.revise(record.id, (turn) => void (turn.status = "suspended"));
  }

  feedback(entry: FeedbackEntry): void {
    const feedback: NonNullable<TurnRecord["feedback"]> = { score: entry.score };
    if (entry.comment !== undefined) feedback.comment = entry.comment;
    if (entry.tags !== undefined) feedback.tags = entry.tags;
    Object.freeze(feedback);
    this.revise(entry.turnId, (turn) => void (turn.feedback = feedback));
  }

  /** A turn's record to fill in from its parsed line: as it is while unfrozen, else a copy put in its place. */
  open(turnId: string): JournalTurn | undefined {
    const record = this.find(turnId);
    if (record === undefined || !Object.isFrozen(record)) return record as JournalTurn | undefined;
    const turn = thawTurn(record);
    this.replace(record, turn as TurnRecord);
    return turn;
  }

  /** Once every line is parsed: freezes the records left open and counts the unfinished again. */
  seal(): void {
    let unfinished = 0;
    for (const record of this.list) {
      if (!Object.isFrozen(record)) freezeTurn(record as JournalTurn);
      if (isUnfinished(record.status)) unfinished++;
    }
    this.unfinished = unfinished;
  }
}
