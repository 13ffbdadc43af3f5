import { ConflictError, JournalCorruptError, SessionBusyError } from "../stores/errors.js";
import { EntryLine, storeChecksReads, type OpenedJournal } from "../stores/journal-open.js";
import { shareRepeats, type SharedRepeats } from "../stores/entry-sharing.js";
import { entryProblem, linkProblem } from "../stores/journal-shape.js";
import type { AppendOptions, ChatStore, JournalEntry, LeasedAppend, NewJournalEntry, TurnEndEntry, TurnLease } from "../stores/types.js";
import type { TurnRecord } from "./types.js";

const MAX_CONFLICT_RETRIES = 5;
/** Up to this many turns, a record is found by looking through them (no map of records by id). */
const SCAN_MAX = 16;
/** The steers of a turn that has none (most): one frozen list for all of them. */
const NO_STEERS: TurnRecord["steers"] = Object.freeze([]) as unknown as TurnRecord["steers"];

/**
 * A session's journal as this process knows it: the entries, the turn records folded from them and the
 * last `seq`. Read once when the session opens, then kept up to date incrementally: every append folds
 * its own entries, and a `ConflictError` (another writer moved the journal) reads only what is new.
 * Appends and catch-ups run one at a time, so `expectedSeq` is always the last entry seen.
 *
 * Opened from a store's `[openJournal]`, June's `turn-start` and `turn-end` lines arrive unparsed past their
 * head (`EntryLine`): a record's id, parent, status and times are known at once, its input, context, text,
 * metadata and error once the journal is first read for records (every accessor below but `leafId`, `lastSeq` and `rememberedTools` parses what is left,
 * and a damaged line is the `JournalCorruptError` naming it, thrown there and on every later access).
 */
export class SessionJournal {
  readonly sessionId: string;
  readonly #store: ChatStore;
  /** True when the store checks the form of what `read` and `append` return (`checksReads`). */
  readonly #checked: boolean;
  readonly #location: string | undefined;
  readonly #entries: (JournalEntry | EntryLine)[] = [];
  /** How many of `#entries` are still `EntryLine`s. */
  #deferred = 0;
  readonly #records: TurnRecord[] = [];
  #unfinished = 0;
  /** The records by id, made once there are more than `SCAN_MAX` (a small session looks through `#records`). */
  #byId: Map<string, TurnRecord> | undefined;
  /** Tools approved with `remember: "session"` (and not revoked since). */
  readonly rememberedTools = new Set<string>();
  /** The current branch: the turns from the first to `#leaf`, following `parentTurnId`. */
  #branch: TurnRecord[] = [];
  #leaf: TurnRecord | undefined;
  #lastSeq = 0;
  /** What the next entry may share with those before it (`#compact`). */
  readonly #repeats: SharedRepeats = {};
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * @param opened the journal as read: `store.read(id)`'s entries, or what the store's `[openJournal]` gave
   *   (`checked`: its entries' form was checked by the store).
   */
  constructor(store: ChatStore, sessionId: string, opened: Partial<OpenedJournal> & { checked?: boolean } = {}) {
    this.#store = store;
    this.sessionId = sessionId;
    this.#checked = storeChecksReads(store);
    this.#location = opened.location;
    this.#fold(opened.entries ?? [], opened.checked ?? this.#checked);
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Every entry, oldest first. Live and read-only: not a copy. */
  get entries(): readonly JournalEntry[] {
    this.#parseDeferred();
    return this.#entries as JournalEntry[];
  }

  /** Every turn, oldest first. Live: the session hands out copies. A turn-start with no turn-end reads `interrupted`. */
  get records(): readonly TurnRecord[] {
    this.#parseDeferred();
    return this.#records;
  }

  /**
   * How many turns are `interrupted` or `suspended` now (started, not ended): kept as entries fold, so that a
   * new turn's check for a waiting one costs nothing in the usual case of none, however long the session.
   */
  get unfinishedCount(): number {
    this.#parseDeferred();
    return this.#unfinished;
  }

  /** The current branch's turns, oldest first. Live: the session hands out copies. */
  get branch(): readonly TurnRecord[] {
    this.#parseDeferred();
    return this.#branch;
  }

  /** The current branch's last turn (what a plain send continues), if any. */
  get leafId(): string | undefined {
    return this.#leaf?.id;
  }

  /** The turns from the first one to `turnId` (included), oldest first; empty for an unknown or absent id. */
  pathTo(turnId: string | undefined): TurnRecord[] {
    this.#parseDeferred();
    return this.#pathTo(turnId);
  }

  #pathTo(turnId: string | undefined): TurnRecord[] {
    const path: TurnRecord[] = [];
    for (let record = turnId === undefined ? undefined : this.#find(turnId); record; ) {
      path.push(record);
      record = record.parentTurnId === undefined ? undefined : this.#find(record.parentTurnId);
    }
    return path.reverse();
  }

  /** The turns whose parent is `parentTurnId` (the first turns for `undefined`), in journal order. */
  children(parentTurnId: string | undefined): TurnRecord[] {
    this.#parseDeferred();
    return this.#records.filter((record) => record.parentTurnId === parentTurnId);
  }

  /** The newest turn on a branch through `turnId` (the last started of it and its descendants). */
  newestThrough(turnId: string): TurnRecord | undefined {
    // A turn always starts after its parent, so one pass in journal order finds every descendant.
    this.#parseDeferred();
    const through = new Set<string>();
    let newest: TurnRecord | undefined;
    for (const record of this.#records) {
      if (record.id === turnId || (record.parentTurnId !== undefined && through.has(record.parentTurnId))) {
        through.add(record.id);
        newest = record;
      }
    }
    return newest;
  }

  record(turnId: string): TurnRecord | undefined {
    this.#parseDeferred();
    return this.#find(turnId);
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
          this.#fold(written, this.#checked);
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
        this.#fold(leased.entries, this.#checked);
      } catch (error) {
        await this.#store.releaseTurn(leased.lease).catch(() => {});
        throw error;
      }
      return leased.lease;
    });
  }

  async #catchUp(): Promise<void> {
    const fresh = await this.#store.read(this.sessionId, { fromSeq: this.#lastSeq + 1 });
    this.#fold(fresh, this.#checked);
  }

  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /**
   * Folds entries in. An entry that is malformed (from a store that does not check its reads: `checked` false)
   * or names a turn that never started is a `JournalCorruptError`: folding it would silently drop earlier
   * turns from the branch, or a reply from its turn. The entries before it stay folded; a later catch-up
   * meets it again.
   */
  #fold(entries: readonly (JournalEntry | EntryLine)[], checked: boolean): void {
    const hasTurn = (id: string) => this.#has(id);
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
        this.#entries.push(entry);
        this.#deferred++;
        if (entry.type === "turn-start") this.#startTurn(entry);
        continue;
      }
      const problem = (checked ? undefined : entryProblem(entry)) ?? linkProblem(entry, hasTurn);
      if (problem !== undefined) throw new JournalCorruptError(this.sessionId, entry.seq, problem);
      // A checked store's entries that are not frozen are this session's own copies (a file read).
      if (checked && !Object.isFrozen(entry)) this.#compact(entry);
      this.#lastSeq = entry.seq;
      this.#entries.push(entry);
      this.#apply(entry);
    }
  }

  /**
   * Parses the lines left as text and gives their turns the input, context, text, metadata and error they
   * hold; `JournalCorruptError` (naming the line) for a damaged one, on this call and every later one.
   */
  #parseDeferred(): void {
    if (this.#deferred === 0) return;
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (!(entry instanceof EntryLine)) continue;
      const parsed = entry.decode(this.sessionId, this.#location);
      entries[i] = parsed;
      this.#deferred--;
      if (parsed.type === "turn-start") {
        // The record its head started (the first turn-start of an id makes the record).
        const record = this.#find(parsed.turnId);
        if (record && record.input === undefined) {
          record.input = parsed.input;
          record.context = parsed.context;
          record.startedAt = parsed.at;
        }
      }
    }
    // Every end and suspend again, in journal order, as they were first folded (an end wins over a suspend
    // after it; a turn ended twice keeps what the last end said).
    for (const entry of entries as JournalEntry[]) {
      if (entry.type === "turn-end") {
        this.#endTurn(entry);
        this.#endBody(entry);
      } else if (entry.type === "turn-suspend") this.#apply(entry);
    }
  }

  /** A turn-start's record (its input, context and time not yet known when it comes from an `EntryLine`). */
  #startTurn(entry: { turnId: string; parentTurnId?: string | undefined; at?: string }): TurnRecord | undefined {
    if (this.#has(entry.turnId)) return undefined;
    const record: TurnRecord = new JournalTurn(entry.turnId, entry.at);
    // No parentTurnId: the turn continues the current branch (an older journal is one line).
    const parent = entry.parentTurnId ?? this.#leaf?.id;
    if (parent !== undefined) record.parentTurnId = parent;
    this.#records.push(record);
    this.#unfinished++;
    if (this.#byId) this.#byId.set(entry.turnId, record);
    else if (this.#records.length > SCAN_MAX) this.#byId = new Map(this.#records.map((r) => [r.id, r]));
    // A new turn's branch becomes current.
    if (parent !== undefined && parent === this.#leaf?.id) this.#branch.push(record);
    else this.#branch = this.#pathTo(record.id);
    this.#leaf = record;
    return record;
  }

  /**
   * Shares what an entry repeats of the journal before it instead of holding it twice (see `shareRepeats`):
   * the turn ids it names are the strings of those turns' records.
   */
  #compact(entry: JournalEntry): void {
    if (entry.type === "turn-start" && entry.parentTurnId !== undefined) {
      const parent = this.#find(entry.parentTurnId);
      if (parent) this.#repeats.turnId = parent.id;
    } else if (entry.type === "turn-end") {
      const record = this.#find(entry.turnId);
      if (record) this.#repeats.turnId = record.id;
    }
    shareRepeats(entry, this.#repeats);
  }

  #find(turnId: string): TurnRecord | undefined {
    if (this.#byId) return this.#byId.get(turnId);
    const records = this.#records;
    for (let i = records.length - 1; i >= 0; i--) if (records[i]!.id === turnId) return records[i];
    return undefined;
  }

  #has(turnId: string): boolean {
    return this.#find(turnId) !== undefined;
  }

  /** A turn-end's status and time. */
  #endTurn(entry: { turnId: string; status: TurnEndEntry["status"]; at: string }): void {
    const record = this.#find(entry.turnId);
    if (!record) return;
    if (record.status === "interrupted" || record.status === "suspended") this.#unfinished--;
    record.status = entry.status;
    record.endedAt = entry.at;
  }

  /** A turn-end's text, metadata and error. */
  #endBody(entry: TurnEndEntry): void {
    const record = this.#find(entry.turnId);
    if (!record) return;
    if (entry.text !== undefined) record.text = entry.text;
    if (entry.metadata !== undefined) record.metadata = entry.metadata;
    if (entry.error !== undefined) record.error = entry.error;
  }

  #apply(entry: JournalEntry): void {
    switch (entry.type) {
      case "session":
      case "summary":
      case "rename":
        return;
      case "checkout": {
        const leaf = entry.turnId === undefined ? undefined : this.#find(entry.turnId);
        if (entry.turnId !== undefined && !leaf) return;
        this.#leaf = leaf;
        this.#branch = this.#pathTo(leaf?.id);
        return;
      }
      case "turn-start": {
        const record = this.#startTurn(entry);
        if (record) {
          record.input = entry.input;
          record.context = entry.context;
        }
        return;
      }
      case "steer": {
        const record = this.#find(entry.turnId);
        if (record) record.steers = [...record.steers, { input: entry.input, atChar: entry.atChar }];
        return;
      }
      case "turn-end": {
        this.#endTurn(entry);
        this.#endBody(entry);
        return;
      }
      case "turn-suspend": {
        const record = this.#find(entry.turnId);
        // A suspend never overrides an end (a resumed turn that ended, read in any order of processes).
        if (record && record.status === "interrupted") record.status = "suspended";
        return;
      }
      case "feedback": {
        const record = this.#find(entry.turnId);
        if (!record) return;
        const feedback: NonNullable<TurnRecord["feedback"]> = { score: entry.score };
        if (entry.comment !== undefined) feedback.comment = entry.comment;
        if (entry.tags !== undefined) feedback.tags = entry.tags;
        record.feedback = feedback;
        return;
      }
      case "approval": {
        if (entry.remember !== "session") return;
        if (entry.approved) this.rememberedTools.add(entry.toolName);
        else this.rememberedTools.delete(entry.toolName);
        return;
      }
      default: {
        // An entry type this version does not know: skip it rather than break the session.
        const unknown: never = entry;
        void unknown;
      }
    }
  }
}


/**
 * A turn record as the journal folds it: a class, so that the fields a turn gets later (its parent, context,
 * end, reply) are stored in the object rather than in a separate property array. Only the fields a turn has
 * are set (no keys holding `undefined`). `input` is undefined only until a deferred turn-start is parsed.
 */
class JournalTurn {
  declare parentTurnId?: string;
  declare context?: TurnRecord["context"];
  declare endedAt?: string;
  declare text?: string;
  declare metadata?: TurnRecord["metadata"];
  declare error?: TurnRecord["error"];
  declare feedback?: TurnRecord["feedback"];
  id: string;
  input: string;
  steers: TurnRecord["steers"] = NO_STEERS;
  status: TurnRecord["status"] = "interrupted";
  startedAt: string;

  constructor(id: string, startedAt: string | undefined) {
    this.id = id;
    this.input = undefined as unknown as string;
    this.startedAt = startedAt as string;
  }
}
