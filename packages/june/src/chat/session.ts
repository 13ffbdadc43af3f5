import type { ApprovalRequest } from "../runtime/types.js";
import type { ChatMemory } from "./memory/chat-memory.js";
import type { ModelMessage } from "ai";
import { CheckpointUnreadableError, SessionBusyError } from "../stores/errors.js";
import type { ChatStore, JournalEntry, ResponderProvenance, StoredCheckpoint, StoredFile } from "../stores/types.js";
import { rebuildContext } from "./context/rebuild-context.js";
import { resolveContext } from "./context/resolve-context.js";
import { decodeCheckpoint, type CheckpointEnvelope, type DurableSettings } from "./durable/checkpoint-codec.js";
import { TurnNotCompletedError, TurnNotFoundError, TurnNotResumableError } from "./errors.js";
import { deferred } from "./internal/deferred.js";
import { normalizeFeedback } from "./feedback.js";
import { normalizeTitle } from "./session-title.js";
import { normalizeTurnInput, type FileLimits, type TurnInput } from "./files/turn-input.js";
import { fileRefOf, loadTurnFiles, readSessionFile, type TurnFiles, withFileBytes } from "./files/session-files.js";
import { replayTurn } from "./replay.js";
import { resumeTurn, runTurn, waitingTurn } from "./run-turn.js";
import type { SessionJournal } from "./session-journal.js";
import { TurnController } from "./turn.js";
import type { ContextBuilder, PendingApproval, Responder, ResponderResult, Session, Turn, TurnFeedback, TurnRecord } from "./types.js";
import type { Telemetry } from "../telemetry/options.js";
import type { Prices } from "../cost/price.js";
import type { Budget } from "../cost/budget.js";
import { isUnfinished } from "./unfinished.js";
import { sessionCost } from "../stores/session-cost.js";
import type { Spent } from "../cost/budget.js";
import { enqueueDecision, queueDecision, restartTurn, startQueuedTurn } from "./internal/queued-turn.js";
import { storeFirstCheckpoint } from "./durable/first-checkpoint.js";
import { sessionEntries } from "./internal/session-entries.js";
import type { QueueDecision, TurnQueue } from "./queue/queue.js";
import { NoQueueError } from "./queue/errors.js";

/** What a session shares with its chat. */
export interface SessionHost {
  readonly store: ChatStore;
  readonly responder: Responder;
  readonly provenance: ResponderProvenance;
  readonly context: ContextBuilder;
  readonly maxInputChars: number;
  /** What a turn's files may be (`createChat({ files })`). */
  readonly files: FileLimits;
  newId(kind: "turn"): string;
  /** The chat's turns running in this process, by session id. */
  readonly running: Map<string, TurnController>;
  /** Set when the responder's turns are durable. */
  readonly durable?: DurableSettings;
  /** The chat's telemetry; undefined when its `telemetry` is `false`. */
  readonly telemetry: Telemetry | undefined;
  /** The chat's prices (`createChat({ prices })`), which win over the catalog's. */
  readonly prices?: Prices;
  /** The chat's budgets (`createChat({ budget })`). */
  readonly budget?: Budget;
  /** Journal each turn's reasoning with its reply (`createChat({ journal: { reasoning: true } })`). */
  readonly journalReasoning?: boolean;
  /** The chat's queue (`createChat({ queue })`): where `session.enqueue` puts turns for workers. */
  readonly queue?: TurnQueue;
  /** The chat's memory (`createChat({ memory })`). */
  readonly memory?: ChatMemory;
}

/** Unfinished turns with a checkpoint, by id: undefined, or why their checkpoint cannot be read. */
type Checkpointed = ReadonlyMap<string, string | undefined>;
const NONE: Checkpointed = new Map();

/**
 * A conversation: its history (kept in memory after it opens and updated as turns are journaled), the
 * journal and each turn's lifecycle.
 */
export class JournaledSession implements Session {
  readonly id: string;
  readonly #host: SessionHost;
  readonly #journal: SessionJournal;

  constructor(host: SessionHost, journal: SessionJournal) {
    this.#host = host;
    this.#journal = journal;
    this.id = journal.sessionId;
  }

  get currentTurn(): Turn | undefined {
    return this.#host.running.get(this.id)?.turn;
  }

  /**
   * Starts a turn at once and returns it. Throws `TypeError` for an input that is not a non-empty string,
   * `InputTooLargeError` past the chat's `maxInputChars`, and `SessionBusyError` while a turn of this
   * process runs in the session. When another process holds the session, the turn fails with
   * `SessionBusyError` before anything is journaled.
   */
  send(input: string | TurnInput): Turn {
    return this.#start(this.#normalize(input), undefined);
  }

  /** A file one of the session's turns sent (any branch), with its bytes: see `Session.file`. */
  async file(fileId: string): Promise<StoredFile | undefined> {
    if (typeof fileId !== "string" || fileId.length === 0) {
      throw new TypeError(`session.file(fileId): fileId must be a non-empty string, got ${typeof fileId}`);
    }
    await this.#journal.catchUp();
    return readSessionFile(this.#host.store, this.id, this.#journal.records, fileId);
  }

  /** The one place a turn's input is checked (see `normalizeTurnInput`); a store that keeps no files takes none. */
  #normalize(input: unknown): TurnFiles {
    const normalized = normalizeTurnInput(input, this.#host.files, this.#host.maxInputChars);
    const store = this.#host.store;
    if (normalized.files.length > 0 && (typeof store.putFile !== "function" || typeof store.getFile !== "function")) {
      throw new TypeError("This chat's store keeps no files (it has no putFile and getFile): a turn cannot send files");
    }
    return normalized;
  }

  /**
   * Puts a turn on the chat's queue and resolves to its id once it is queued; a worker runs it with that id.
   * `NoQueueError` when the chat has no queue; a bad input throws as `send` does, before anything is queued.
   */
  async enqueue(input: string): Promise<{ turnId: string }> {
    // A queued turn carries its text in the job; files are not queued yet (send them with `send`).
    if (typeof input !== "string") throw new TypeError(`session.enqueue(input): input must be a string (a queued turn takes text only), got ${input === null ? "null" : typeof input}`);
    this.#normalize(input);
    const queue = this.#host.queue;
    if (!queue) throw new NoQueueError("session.enqueue(input)");
    const turnId = this.#host.newId("turn");
    await queue.enqueue({ kind: "turn", sessionId: this.id, turnId, input });
    return { turnId };
  }

  /** The journal's entries as this session holds them, caught up with the store (see `sessionEntries`). */
  async [sessionEntries](): Promise<readonly JournalEntry[]> {
    await this.#journal.catchUp();
    return this.#journal.entries;
  }

  /** Starts a queued turn under the id it was enqueued with (a worker's call; see `startQueuedTurn`). */
  [startQueuedTurn](turnId: string, input: string): Turn {
    return this.#start(this.#normalize(input), undefined, turnId);
  }

  /** Queues a decision on a suspended turn for a worker (the server's call; see `enqueueDecision`). */
  [enqueueDecision](turnId: string, decision: QueueDecision): Promise<{ turnId: string } | undefined> {
    return queueDecision(this, this.#host.queue, turnId, decision);
  }

  /** Runs again from its start a durable turn that died before its first checkpoint (a worker's call; see `restartTurn`). */
  async [restartTurn](turnId: string): Promise<Turn> {
    await storeFirstCheckpoint(this.#host, this.#journal, turnId);
    return this.resume(turnId);
  }

  /**
   * Answers a turn's input again (the current branch's last turn by default) in a new turn on a new branch
   * from that turn's parent, made current. `TurnNotFoundError` for an unknown turn; otherwise as `send`.
   */
  regenerate(turnId?: string): Turn {
    const id = turnId ?? this.#journal.leafId;
    if (id === undefined) throw new TurnNotFoundError(this.id, "(the last turn: the session has none)");
    const record = this.#known(id, "regenerate");
    return this.#start({ text: record.input, files: record.files ?? [] }, { turnId: record.parentTurnId });
  }

  /** Sends `input` in a turn's place: a new turn on a new branch from that turn's parent, made current. */
  edit(turnId: string, input: string | TurnInput): Turn {
    const record = this.#known(turnId, "edit");
    return this.#start(this.#normalize(input), { turnId: record.parentTurnId });
  }

  /** The alternatives at a turn's position: the turns sharing its parent (itself included), oldest first. */
  async branches(turnId: string): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    const record = this.#known(turnId, "branches");
    return this.#copies(this.#journal.children(record.parentTurnId));
  }

  /** The alternatives at each turn of the current branch that has any: one pass over the turns, not one per turn. */
  async alternatives(): Promise<Record<string, string[]>> {
    await this.#journal.catchUp();
    const byParent = new Map<string | undefined, string[]>();
    for (const record of this.#journal.records) {
      const siblings = byParent.get(record.parentTurnId);
      if (siblings) siblings.push(record.id);
      else byParent.set(record.parentTurnId, [record.id]);
    }
    const found: Record<string, string[]> = {};
    for (const record of this.#journal.branch) {
      const siblings = byParent.get(record.parentTurnId)!;
      if (siblings.length > 1) found[record.id] = [...siblings];
    }
    return found;
  }

  /** What the session spent; see `Session.cost`. */
  async cost(): Promise<Spent> {
    await this.#journal.catchUp();
    return sessionCost(this.#journal.records);
  }

  /** Journals a `rename` entry; see `Session.rename`. */
  async rename(title: string): Promise<string> {
    const clean = normalizeTitle(title);
    await this.#journal.append([{ type: "rename", title: clean }]);
    return clean;
  }

  /**
   * Makes the branch through a turn current, down to its newest turn, and journals it (unless it is current
   * already) so a reopened session comes back on it. Resolves to the branch's turns.
   */
  async checkout(turnId: string): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    this.#known(turnId, "checkout");
    const running = this.#host.running.get(this.id);
    if (running) throw new SessionBusyError(this.id, `turn "${running.id}" is running in this process`);
    const leaf = this.#journal.newestThrough(turnId)!;
    if (leaf.id !== this.#journal.leafId) await this.#journal.append([{ type: "checkout", turnId: leaf.id }]);
    return this.turns();
  }

  /**
   * Revokes a tool's approval for the session (given by `turn.approve(id, { remember: "session" })`): journals
   * an `approval` entry with `approved: false, remember: "session"` and no request, so later calls of the
   * tool ask again, in running turns too. Resolves to `false` (and journals nothing) when the tool was not
   * approved for the session. `TypeError` for a `toolName` that is not a non-empty string.
   */
  async revokeApproval(toolName: string): Promise<boolean> {
    if (typeof toolName !== "string" || toolName.length === 0) {
      throw new TypeError(`session.revokeApproval(toolName): toolName must be a non-empty string, got ${typeof toolName}`);
    }
    await this.#journal.catchUp();
    if (!this.#journal.rememberedTools.has(toolName)) return false;
    const revocation = { type: "approval", toolName, approved: false, remember: "session" } as const;
    await this.#journal.append([revocation]);
    return true;
  }

  /** The tools approved for the session (and not revoked since), sorted by name. */
  async rememberedApprovals(): Promise<string[]> {
    await this.#journal.catchUp();
    return [...this.#journal.rememberedTools].sort();
  }

  /**
   * Answers a turn's input again with exactly the context it was answered with, rebuilt from its
   * provenance (its summary and earlier turns), by the chat's responder or `options.responder`. Nothing is
   * journaled; resolves to the responder's result (`{ text, metadata }`). The turn's steers are not sent.
   */
  async replay(turnId: string, options: { responder?: Responder } = {}): Promise<ResponderResult> {
    await this.#journal.catchUp();
    const record = this.#known(turnId, "replay");
    const journal = this.#journal;
    const store = this.#host.store;
    const messages = await withFileBytes(rebuildContext(record, journal.pathTo(record.parentTurnId), { summaries: journal.summaries() }), store, this.id);
    const files = await loadTurnFiles(store, this.id, record.files ?? []);
    return replayTurn({ responder: options.responder ?? this.#host.responder, sessionId: this.id, turnId, input: record.input, files, messages });
  }

  #known(turnId: string, method: string): TurnRecord {
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.${method}(turnId): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const record = this.#journal.record(turnId);
    if (!record) throw new TurnNotFoundError(this.id, turnId);
    return record;
  }

  #start(input: TurnFiles, parent: { turnId: string | undefined } | undefined, turnId?: string): Turn {
    const host = this.#host;
    const running = host.running.get(this.id);
    if (running) throw new SessionBusyError(this.id, `turn "${running.id}" is running in this process`);
    const suspended = this.#journal.unfinishedCount === 0 ? undefined : this.#journal.records.find((record) => record.status === "suspended");
    if (suspended) throw waitingTurn(this.id, suspended);
    const controller = new TurnController({
      id: turnId ?? host.newId("turn"),
      sessionId: this.id,
      journal: this.#journal,
      maxInputChars: host.maxInputChars,
      files: input.files.map(fileRefOf),
      journalReasoning: host.journalReasoning,
    });
    host.running.set(this.id, controller);
    void runTurn({
      turn: controller,
      input: input.text,
      files: input.files,
      responder: host.responder,
      provenance: host.provenance,
      context: host.context,
      journal: this.#journal,
      store: host.store,
      telemetry: host.telemetry,
      ...(host.prices ? { prices: host.prices } : {}),
      ...(host.budget ? { budget: host.budget } : {}),
      ...(host.memory ? { memory: host.memory } : {}),
      ...(parent ? { parent } : {}),
      ...(host.durable ? { durable: host.durable } : {}),
      onDone: () => {
        if (host.running.get(this.id) === controller) host.running.delete(this.id);
      },
    });
    return controller.turn;
  }

  /**
   * The current branch's journaled turns, oldest first. A turn that started and never ended reads `interrupted`, unless it
   * is the turn running now in this process (`running`).
   */
  async turns(): Promise<TurnRecord[]> {
    await this.#journal.catchUp();
    return this.#copies(this.#journal.branch, await this.#checkpointed(this.#journal.branch));
  }

  /**
   * The unfinished turns among `records` that have a checkpoint, each with why it cannot be read when it cannot
   * (none read when none is unfinished). A durable chat reads each (decrypts it), so that a wrong key shows here.
   */
  async #checkpointed(records: readonly TurnRecord[]): Promise<Checkpointed> {
    const store = this.#host.store;
    if (typeof store.listCheckpoints !== "function" || !records.some((r) => isUnfinished(r.status))) return NONE;
    const runningId = this.#host.running.get(this.id)?.id;
    const unfinished = new Set(records.filter((r) => isUnfinished(r.status) && r.id !== runningId).map((r) => r.id));
    const found = new Map<string, string | undefined>();
    for (const stored of await store.listCheckpoints(this.id)) {
      if (!unfinished.has(stored.turnId)) continue;
      const problem = stored.unreadable === undefined && !this.#host.durable ? undefined : this.#decode(stored);
      found.set(stored.turnId, problem instanceof CheckpointUnreadableError ? problem.detail : undefined);
    }
    return found;
  }

  /** The stored checkpoint as an envelope, or why it cannot be read (not thrown: only its turn is affected). */
  #decode(stored: StoredCheckpoint): CheckpointEnvelope | CheckpointUnreadableError {
    if (stored.unreadable !== undefined) return new CheckpointUnreadableError(this.id, stored.turnId, stored.unreadable);
    try {
      return decodeCheckpoint(stored.data, this.id, stored.turnId, this.#host.durable?.key);
    } catch (error) {
      if (CheckpointUnreadableError.isInstance(error)) return error;
      throw error;
    }
  }

  /**
   * The records as the session hands them out: the journal's own (frozen, shared) records, but a copy for an
   * unfinished turn that runs in this process (`running`), can be resumed (`resumable`) or has a checkpoint
   * that cannot be read (`checkpointUnreadable`).
   */
  #copies(records: readonly TurnRecord[], checkpointed: Checkpointed = NONE): TurnRecord[] {
    const runningId = this.#host.running.get(this.id)?.id;
    return records.map((record) => {
      if (!isUnfinished(record.status)) return record;
      const running = record.id === runningId;
      const stored = !running && checkpointed.has(record.id);
      if (!running && !stored) return record;
      const copy: TurnRecord = { ...record, status: running ? "running" : record.status };
      const unreadable = stored ? checkpointed.get(record.id) : undefined;
      if (unreadable !== undefined) copy.checkpointUnreadable = unreadable;
      else if (stored) copy.resumable = true;
      return Object.freeze(copy);
    });
  }

  /**
   * The requests the session's unfinished durable turns wait on, oldest first, inputs included: from the
   * live turn when it runs in this process, else from each turn's checkpoint. A turn whose checkpoint cannot
   * be read waits on nothing here (its record says why: `checkpointUnreadable`); the others are listed.
   */
  async pendingApprovals(): Promise<PendingApproval[]> {
    await this.#journal.catchUp();
    const store = this.#host.store;
    const live = this.#host.running.get(this.id);
    const out: PendingApproval[] = [];
    const stored = typeof store.getCheckpoint === "function" && typeof store.listCheckpoints === "function"
      ? new Map((await store.listCheckpoints(this.id)).map((c) => [c.turnId, c]))
      : new Map();
    for (const record of this.#journal.records) {
      if (live?.id === record.id) {
        for (const r of live.requests) out.push(pendingOf(record.id, r));
        continue;
      }
      if (!isUnfinished(record.status)) continue;
      const checkpoint = stored.get(record.id);
      if (!checkpoint) continue;
      const envelope = this.#decode(checkpoint);
      if (envelope instanceof CheckpointUnreadableError) continue;
      for (const r of envelope.requests) out.push(pendingOf(record.id, r));
    }
    return out;
  }

  /**
   * Continues a suspended or interrupted durable turn in this process and resolves to the live turn once its
   * requests are open again (same ids). A turn already running here resolves to itself.
   */
  async resume(turnId: string): Promise<Turn> {
    const host = this.#host;
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.resume(turnId): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const running = host.running.get(this.id);
    if (running?.id === turnId) return running.turn;
    if (running) throw new SessionBusyError(this.id, `turn "${running.id}" is running in this process`);
    await this.#journal.catchUp();
    const record = this.#known(turnId, "resume");
    if (!isUnfinished(record.status)) throw new TurnNotResumableError(this.id, turnId, `it is ${record.status}`);
    if (!host.durable || typeof host.responder.resume !== "function") {
      throw new TurnNotResumableError(this.id, turnId, "the chat's responder is not durable (agentResponder({ durable: true }))");
    }
    if (host.running.get(this.id)) throw new SessionBusyError(this.id, `turn "${host.running.get(this.id)!.id}" is running in this process`);
    const controller = new TurnController({ id: turnId, sessionId: this.id, journal: this.#journal, maxInputChars: host.maxInputChars, journalReasoning: host.journalReasoning });
    host.running.set(this.id, controller);
    const ready = deferred<Turn>();
    void resumeTurn({
      turn: controller,
      responder: host.responder,
      provenance: host.provenance,
      journal: this.#journal,
      store: host.store,
      durable: host.durable,
      telemetry: host.telemetry,
      ...(host.prices ? { prices: host.prices } : {}),
      ...(host.budget ? { budget: host.budget } : {}),
      ...(host.memory ? { memory: host.memory } : {}),
      ready,
      onDone: () => {
        if (host.running.get(this.id) === controller) host.running.delete(this.id);
      },
    });
    return ready.promise;
  }

  /**
   * Ends an unfinished turn without running anything more: a turn running in this process is canceled (and
   * this resolves once it ended); a suspended or interrupted one is journaled `canceled` under the session's
   * lease, its checkpoint deleted in the same store call.
   */
  async cancel(turnId: string): Promise<void> {
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.cancel(turnId): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const running = this.#host.running.get(this.id);
    if (running?.id === turnId) {
      running.cancel();
      await running.turn.result.catch(() => {});
      return;
    }
    await this.#journal.catchUp();
    const record = this.#known(turnId, "cancel");
    if (!isUnfinished(record.status)) throw new TurnNotResumableError(this.id, turnId, `it is ${record.status}, so there is nothing to cancel`);
    const store = this.#host.store;
    const lease = await store.acquireTurn(this.id);
    try {
      await this.#journal.catchUp();
      if (!isUnfinished(this.#journal.record(turnId)!.status)) return;
      const hasCheckpoints = typeof store.deleteCheckpoint === "function";
      await this.#journal.append([{ type: "turn-end", turnId, status: "canceled" }], { sync: true, ...(hasCheckpoints ? { deleteCheckpoint: turnId } : {}) });
    } finally {
      await store.releaseTurn(lease).catch(() => {});
    }
  }

  /**
   * Journals feedback on a completed turn (see `normalizeFeedback` for what is accepted); the latest
   * feedback on a turn supersedes the earlier. `TurnNotFoundError` for a turn this session does not have,
   * `TurnNotCompletedError` for one that is running or did not complete.
   */
  async feedback(turnId: string, feedback: TurnFeedback): Promise<TurnFeedback> {
    if (typeof turnId !== "string" || turnId.length === 0) {
      throw new TypeError(`session.feedback(turnId, feedback): turnId must be a non-empty string, got ${typeof turnId}`);
    }
    const normalized = normalizeFeedback(feedback);
    await this.#journal.catchUp();
    const record = this.#journal.record(turnId);
    if (!record) throw new TurnNotFoundError(this.id, turnId);
    if (record.status !== "completed") {
      const running = record.status === "interrupted" && this.#host.running.get(this.id)?.id === turnId;
      throw new TurnNotCompletedError(this.id, turnId, running ? "running" : record.status);
    }
    await this.#journal.append([{ type: "feedback", turnId, ...normalized }]);
    return normalized;
  }

  /** What the chat's context would send for the next turn. */
  async messages(): Promise<ModelMessage[]> {
    await this.#journal.catchUp();
    const journal = this.#journal;
    const { messages } = await resolveContext(this.#host.context, this.#journal.branch.slice(), {
      sessionId: this.id,
      input: "",
      scope: journal.scope,
      // Made only for a builder that reads them.
      get entries() {
        return journal.entries;
      },
    });
    return withFileBytes(messages, this.#host.store, this.id);
  }
}

function pendingOf(turnId: string, request: ApprovalRequest): PendingApproval {
  return { ...request, turnId };
}
