import { ConflictError, JournalCorruptError, SessionBusyError } from "../stores/errors.js";
import {
  EntryLine,
  journalEntries,
  keepsJournals,
  sharedTurnOf,
  storeChecksReads,
  type JournalKeeper,
  type OpenedJournal,
} from "../stores/journal-open.js";
import { shareRepeats, type SharedRepeats } from "../stores/entry-sharing.js";
import { entryProblem, linkProblem } from "../stores/journal-shape.js";
import type { AppendOptions, ChatStore, JournalEntry, LeasedAppend, NewJournalEntry, TurnEndEntry, TurnLease, TurnStartEntry } from "../stores/types.js";
import { summariesOf } from "./context/summarized-context.js";
import { JournalRecords } from "./journal-records.js";
import { compactSlots, entryAt, spellEnds, startSlot, type Slot } from "./journal-slots.js";
import type { TurnRecord } from "./types.js";
import { endSaysAll, endTurn, sameTurn } from "../stores/turn-records.js";

const MAX_CONFLICT_RETRIES = 5;
/** Journals up to this many entries are kept in arrays of their exact length (`#fit`). */
const FIT_MAX = 64;
const IDLE: Promise<unknown> = Promise.resolve();

/**
 * A session's journal as this process knows it: the turn records folded from its entries, the entries that
 * are not in a record and the last `seq`. Read once when the session opens, then kept up to date
 * incrementally: every append folds its own entries, and a `ConflictError` (another writer moved the
 * journal) reads only what is new. Appends and catch-ups run one at a time, so `expectedSeq` is always the
 * last entry seen.
 *
 * The records are frozen and shared: what `records`, `branch`, `record` and the others return is what the
 * session hands out (`session.turns()`); a change to a turn (its end, a steer, feedback) replaces its record.
 * A turn's `turn-start` and its `turn-end` in June's layout are not kept beside its record: the record holds
 * everything they say, and `entries` rebuilds them (equal, key for key) when first asked for.
 *
 * Opened from a store's `[openJournal]`, June's `turn-start` and `turn-end` lines arrive unparsed past their
 * head (`EntryLine`): a record's id and parent are known at once, everything else (status, times, input,
 * context, text, metadata, error) once the journal is first read for records (every accessor below but
 * `leafId`, `lastSeq` and `rememberedTools`, `summaries()` included, parses what is left, and a damaged line is
 * the `JournalCorruptError` naming it, thrown there and on every later access).
 */
export class SessionJournal {
  readonly sessionId: string;
  /** What context builders key their per-session work by (`ContextOptions.scope`): it goes with this journal. */
  readonly scope: object = {};
  readonly #store: ChatStore;
  /**
   * Set while some of `#slots` are `EntryLine`s (lines not parsed past their head): where the journal lives,
   * which their errors name.
   */
  #unparsed: { location: string | undefined } | undefined;
  /**
   * The journal in order, one slot per entry (`Slot`). Where a turn's record says all its entry said, the slot
   * holds no entry (it is rebuilt for `entries`): the turn-start that made a record stands by the record's
   * index, the turn's only `turn-end` by the turn's id. Everything else is the entry itself. Undefined on a
   * store that keeps the journal in this process (`[journalEntries]`: memoryStore), which `entries` then asks.
   */
  #slots: Slot[] | undefined;
  /** The turn records folded from the entries: every turn, the current branch, the unfinished count. */
  #records = new JournalRecords();
  /** Tools approved with `remember: "session"` (and not revoked since); made with the first. */
  #remembered: Set<string> | undefined;
  #lastSeq = 0;
  /** What the next entry may share with those before it (`#compact`); made with the first it applies to. */
  #repeats: SharedRepeats | undefined;
  /** The last task queued (`#serialize`), until it settles. */
  #queue: Promise<unknown> | undefined;
  /** Every entry, made by the first read of `entries` and kept up to date from then on. */
  #entries: JournalEntry[] | undefined;

  /**
   * @param opened the journal as read: `store.read(id)`'s entries, or what the store's `[openJournal]` gave
   *   (`checked`: its entries' form was checked by the store).
   */
  constructor(store: ChatStore, sessionId: string, opened: Partial<OpenedJournal> & { checked?: boolean } = {}) {
    this.#store = store;
    this.sessionId = sessionId;
    const location = opened.location;
    const entries = opened.entries ?? [];
    const unparsed = entries.some((entry) => entry instanceof EntryLine);
    if (unparsed) this.#unparsed = { location };
    if (unparsed || !keepsJournals(store)) this.#slots = [];
    // With lines left to parse, no entry gives way to its record until all are (`#parseDeferred`).
    this.#fold(entries, opened.checked ?? storeChecksReads(store), !unparsed);
    // No room to grow: an idle session holds what it has.
    if (this.#slots) this.#slots = this.#slots.slice();
    this.#records.fit();
  }

  /** After an append: a short journal's arrays are kept at their exact length (a copy of each). */
  #fit(): void {
    if (this.#lastSeq > FIT_MAX) return;
    if (this.#slots) this.#slots = this.#slots.slice();
    this.#records.fit();
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Every entry, oldest first. Live and read-only: not a copy (made on the first read, then kept). */
  get entries(): readonly JournalEntry[] {
    this.#parseDeferred();
    if (this.#entries) return this.#entries;
    const store = this.#store;
    this.#entries = this.#slots ? this.#rebuildEntries() : (store as ChatStore & JournalKeeper)[journalEntries](this.sessionId, this.#lastSeq);
    return this.#entries;
  }

  /** The journal's summaries by the last turn each covers (`summariesOf`), without making `entries`. */
  summaries(): ReadonlyMap<string, string> {
    // A slot that is not an entry (a turn's id, a line not parsed) is never a summary.
    return summariesOf((this.#slots ?? this.entries) as readonly JournalEntry[]);
  }

  /**
   * Every turn, oldest first; the records are frozen. A turn-start with no turn-end reads `interrupted`. Read it
   * again after an append: a short journal's array is replaced, not grown.
   */
  get records(): readonly TurnRecord[] {
    this.#parseDeferred();
    return this.#records.list;
  }

  /**
   * How many turns are `interrupted` or `suspended` now (started, not ended): kept as entries fold, so that a
   * new turn's check for a waiting one costs nothing in the usual case of none, however long the session.
   */
  get unfinishedCount(): number {
    this.#parseDeferred();
    return this.#records.unfinished;
  }

  /** The current branch's turns, oldest first; the records are frozen. Read it again after an append. */
  get branch(): readonly TurnRecord[] {
    this.#parseDeferred();
    return this.#records.branch;
  }

  /** The current branch's last turn (what a plain send continues), if any. */
  get leafId(): string | undefined {
    return this.#records.leaf?.id;
  }

  /** Tools approved with `remember: "session"` (and not revoked since). */
  get rememberedTools(): Set<string> {
    return (this.#remembered ??= new Set());
  }

  /** The turns from the first one to `turnId` (included), oldest first; empty for an unknown or absent id. */
  pathTo(turnId: string | undefined): TurnRecord[] {
    this.#parseDeferred();
    return this.#records.pathTo(turnId);
  }

  /** The turns whose parent is `parentTurnId` (the first turns for `undefined`), in journal order. */
  children(parentTurnId: string | undefined): TurnRecord[] {
    this.#parseDeferred();
    return this.#records.children(parentTurnId);
  }

  /** The newest turn on a branch through `turnId` (the last started of it and its descendants). */
  newestThrough(turnId: string): TurnRecord | undefined {
    this.#parseDeferred();
    return this.#records.newestThrough(turnId);
  }

  record(turnId: string): TurnRecord | undefined {
    this.#parseDeferred();
    return this.#records.find(turnId);
  }

  /** Reads the entries appended since the last one seen (by other writers). */
  catchUp(): Promise<void> {
    return this.#serialize(() => this.#catchUp());
  }

  /**
   * Appends entries atomically after the last one seen and folds them in. When another writer moved the
   * journal, reads what is new and, unless `onConflict` says otherwise, tries again.
   * `onConflict` may return replacement entries (built from the fresh state) or `undefined` to keep them.
   */
  append(
    entries: NewJournalEntry[],
    options: Omit<AppendOptions, "expectedSeq"> & { onConflict?: () => Promise<NewJournalEntry[] | undefined> | NewJournalEntry[] | undefined } = {},
  ): Promise<JournalEntry[]> {
    return this.#serialize(async () => {
      let pending = entries;
      for (let attempt = 0; ; attempt++) {
        try {
          const written = await this.#store.append(this.sessionId, pending, {
            expectedSeq: this.#lastSeq,
            ...(options.sync ? { sync: true } : {}),
            ...(options.deleteCheckpoint !== undefined ? { deleteCheckpoint: options.deleteCheckpoint } : {}),
            ...(options.endsLease ? { endsLease: options.endsLease } : {}),
          });
          this.#fold(written, storeChecksReads(this.#store), true);
          this.#fit();
          return written;
        } catch (error) {
          if (!ConflictError.isInstance(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
          await this.#catchUp();
          pending = (await options.onConflict?.()) ?? pending;
        }
      }
    });
  }

  /**
   * Takes the session's turn lease and appends `entries` in one store call (`acquireTurnAndAppend`, which the
   * store must have), but only if the journal is still at `expectedSeq`, the last seq seen when the entries
   * were made; folds them in and resolves to the lease. Writes nothing and takes no lease when another holder
   * has it (`"busy"`) or the journal moved on (`"moved"`: what is new has been read by then).
   */
  acquireAndAppend(entries: NewJournalEntry[], options: { expectedSeq: number }): Promise<TurnLease | "busy" | "moved"> {
    return this.#serialize(async () => {
      // Moved on here already (this process appended or read since): the entries were made from an older state.
      if (options.expectedSeq !== this.#lastSeq) return "moved";
      let leased: LeasedAppend;
      try {
        leased = await this.#store.acquireTurnAndAppend!(this.sessionId, entries, { expectedSeq: options.expectedSeq });
      } catch (error) {
        if (SessionBusyError.isInstance(error)) return "busy";
        if (!ConflictError.isInstance(error)) throw error;
        await this.#catchUp();
        return "moved";
      }
      try {
        this.#fold(leased.entries, storeChecksReads(this.#store), true);
        this.#fit();
      } catch (error) {
        await this.#store.releaseTurn(leased.lease).catch(() => {});
        throw error;
      }
      return leased.lease;
    });
  }

  async #catchUp(): Promise<void> {
    const fresh = await this.#store.read(this.sessionId, { fromSeq: this.#lastSeq + 1 });
    this.#fold(fresh, storeChecksReads(this.#store), true);
  }

  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = (this.#queue ?? IDLE).then(task, task);
    // The next task waits for this one, however it ends; once the last has ended, an idle session keeps no promise.
    const done = (): void => {
      if (this.#queue === settled) this.#queue = undefined;
    };
    const settled: Promise<void> = run.then(done, done);
    this.#queue = settled;
    return run;
  }

  /**
   * Folds entries in. An entry that is malformed (from a store that does not check its reads: `checked` false)
   * or names a turn that never started is a `JournalCorruptError`: folding it would silently drop earlier
   * turns from the branch, or a reply from its turn. The entries before it stay folded; a later catch-up
   * meets it again. `compact`: an entry its record says all of may give way to it (see `#slots`).
   */
  #fold(entries: readonly (JournalEntry | EntryLine)[], checked: boolean, compact: boolean): void {
    const hasTurn = (id: string) => this.#records.has(id);
    for (const entry of entries) {
      if (entry.seq <= this.#lastSeq) continue;
      if (entry instanceof EntryLine) {
        // Its head was checked by the store; the rest is parsed by #parseDeferred.
        const named = entry.type === "turn-start" ? entry.parentTurnId : entry.turnId;
        if (named !== undefined && !hasTurn(named)) {
          const field = entry.type === "turn-start" ? "parentTurnId" : "turnId";
          throw new JournalCorruptError(this.sessionId, entry.seq, `${entry.type}: \`${field}\` "${named}" names no earlier turn`);
        }
        this.#lastSeq = entry.seq;
        this.#slots!.push(entry);
        if (entry.type === "turn-start") this.#records.start(entry, undefined);
        continue;
      }
      const problem = (checked ? undefined : entryProblem(entry)) ?? linkProblem(entry, hasTurn);
      if (problem !== undefined) throw new JournalCorruptError(this.sessionId, entry.seq, problem);
      // A checked store's entries that are not frozen are this session's own copies (a file read).
      if (checked && !Object.isFrozen(entry)) this.#compact(entry);
      this.#lastSeq = entry.seq;
      // Slot `i` stands for seq `i + 1` only while the seqs have no gap (a store's own seqs never do).
      const slots = this.#slots;
      const compactable = slots !== undefined && compact && this.#unparsed === undefined && entry.seq === slots.length + 1;
      const slot = this.#apply(entry, compactable);
      slots?.push(slot);
      this.#entries?.push(entry);
    }
  }

  /**
   * Parses the lines left as text and gives their turns the input, context, text, metadata and error they
   * hold; `JournalCorruptError` (naming the line) for a damaged one, on this call and every later one, with
   * nothing changed.
   */
  #parseDeferred(): void {
    const unparsed = this.#unparsed;
    if (unparsed === undefined) return;
    const slots = this.#slots!;
    // Every line first: a damaged one throws before anything changes.
    const parsed: (TurnStartEntry | TurnEndEntry | undefined)[] = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (slot instanceof EntryLine) parsed[i] = slot.decode(this.sessionId, unparsed.location);
    }
    // The records of lines not parsed were left unfrozen (no one had them); a frozen one is copied.
    const records = this.#records;
    for (let i = 0; i < slots.length; i++) {
      const entry = parsed[i];
      if (entry === undefined) continue;
      slots[i] = entry;
      if (entry.type !== "turn-start") continue;
      // The record its head started (the first turn-start of an id makes the record).
      const turn = records.open(entry.turnId);
      if (turn && turn.input === undefined) {
        turn.input = entry.input;
        turn.context = entry.context;
        if (entry.files !== undefined) turn.files = entry.files;
        turn.startedAt = entry.at;
      }
    }
    this.#unparsed = undefined;
    // Every end and suspend again, in journal order, as they were first folded (an end wins over a suspend
    // after it; a turn ended twice keeps what the last end said).
    for (const slot of slots as JournalEntry[]) {
      if (slot.type === "turn-end") {
        const turn = records.open(slot.turnId);
        if (turn) endTurn(turn, slot);
      } else if (slot.type === "turn-suspend") {
        const turn = records.open(slot.turnId);
        if (turn && turn.status === "interrupted") turn.status = "suspended";
      }
    }
    records.seal();
    // Now that every record is whole, the entries it says all of give way to it.
    compactSlots(slots, records);
  }

  /** Every entry, those a record stands for rebuilt from it. */
  #rebuildEntries(): JournalEntry[] {
    return this.#slots!.map((slot, i) => entryAt(this.#records, i, slot));
  }

  /**
   * Shares what an entry repeats of the journal before it instead of holding it twice (see `shareRepeats`):
   * the turn ids it names are the strings of those turns' records.
   */
  #compact(entry: JournalEntry): void {
    const repeats = (this.#repeats ??= {});
    if (entry.type === "turn-start" && entry.parentTurnId !== undefined) {
      const parent = this.#records.find(entry.parentTurnId);
      if (parent) repeats.turnId = parent.id;
    } else if (entry.type === "turn-end") {
      const record = this.#records.find(entry.turnId);
      if (record) repeats.turnId = record.id;
    }
    shareRepeats(entry, repeats);
  }

  /**
   * Folds one entry into the records; returns what its slot holds: the entry, or (`compactable`) its turn's id
   * when the record says all the entry does.
   */
  #apply(entry: JournalEntry, compactable: boolean): Slot {
    switch (entry.type) {
      case "session":
      case "summary":
      case "rename":
        return entry;
      case "checkout":
        this.#records.checkout(entry.turnId);
        return entry;
      case "turn-start": {
        const records = this.#records;
        const record = records.start(entry, entry);
        const stand = compactable && record ? startSlot(records, entry, records.list.length - 1) : undefined;
        return stand ?? entry;
      }
      case "steer":
        this.#records.steer(entry);
        return entry;
      case "turn-end": {
        const records = this.#records;
        const record = records.find(entry.turnId);
        if (!record) return entry;
        // Ended before: its earlier end stops being said by the record.
        if (record.endedAt !== undefined && this.#slots) spellEnds(this.#slots, records, record.id);
        let next = records.end(record, entry);
        // The store's own record when it is this one, field for field: one object for both.
        const shared = sharedTurnOf(this.#store, this.sessionId, record.id) as TurnRecord | undefined;
        if (shared !== undefined && shared !== next && Object.isFrozen(next) && sameTurn(shared, next)) {
          records.replace(next, shared);
          next = shared;
        }
        return compactable && endSaysAll(entry, next) ? next.id : entry;
      }
      case "turn-suspend":
        this.#records.suspend(entry.turnId);
        return entry;
      case "feedback":
        this.#records.feedback(entry);
        return entry;
      case "approval": {
        if (entry.remember !== "session") return entry;
        if (entry.approved) this.rememberedTools.add(entry.toolName);
        else this.#remembered?.delete(entry.toolName);
        return entry;
      }
      default: {
        // An entry type this version does not know: skip it rather than break the session.
        const unknown: never = entry;
        return unknown;
      }
    }
  }
}
