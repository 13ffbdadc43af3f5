import type { ReplySource } from "../ai-sdk/model-asides.js";
import type { ModelInfo, Usage } from "../ai-sdk/call-types.js";
import type { Cost } from "../cost/price.js";
import type { MemoryProvenance, MemoryStoreMethods } from "./memory-types.js";

/** Status a turn ends with in the journal. */
/** `blocked`: a guardrail tripped (`error` names it and its reason; no reply is kept). */
export type TurnEndStatus = "completed" | "failed" | "canceled" | "blocked";

/** What a responder said about itself; recorded on every turn it answers. */
export interface ResponderProvenance {
  kind: string;
  id?: string;
  version?: string;
}

/** A completed turn's provenance, as journaled. JSON-safe. */
export interface TurnMetadata {
  responder: ResponderProvenance;
  /** The agent that answered, for a responder of several agents (`agentResponder({ agents })`). */
  agent?: AgentProvenance;
  /**
   * The turn handed the conversation to another agent: later turns go to `to` (the last one's, in a list: a turn
   * that handed on more than once records each handoff, in order).
   */
  handoff?: HandoffRecord | HandoffRecord[];
  model?: ModelInfo;
  usage?: Partial<Usage>;
  /** What the turn cost, from its usage at the model's price; left out when that price is not known (never 0). */
  cost?: Cost;
  finishReason?: string;
}

/** One agent of a responder of several (`agentResponder({ agents })`): its key there and its version. */
export interface AgentProvenance {
  id: string;
  version?: string;
}

/** A handoff, as a turn's metadata journals it: from this turn on, `to` holds the conversation. */
export interface HandoffRecord {
  from: string;
  to: string;
  /** Why, as the model (or the code) that handed off said. */
  reason?: string;
}

/**
 * A file a turn sent, as the journal keeps it: a reference, never the bytes (the store keeps those, once per
 * session for the same bytes: `ChatStore.putFile`, `getFile`). JSON-safe.
 */
export interface FileRef {
  /** The file's id in its session: its `sha256` (files are kept by content). */
  id: string;
  mediaType: string;
  filename?: string;
  /** Its size, in bytes. */
  size: number;
  /** The SHA-256 of its bytes, lowercase hex. */
  sha256: string;
}

/** What `ChatStore.putFile` takes: a file's bytes and what they are. */
export interface NewFile {
  bytes: Uint8Array;
  mediaType: string;
  filename?: string;
}

/** A file as `ChatStore.getFile` gives it back: its reference and its bytes. */
export interface StoredFile {
  ref: FileRef;
  bytes: Uint8Array;
}

/** What the context chose for a turn: ids only, never their text again. */
export interface ContextProvenance {
  builder: string;
  /** The earlier turns sent, oldest first. Empty when `completedThrough` says it more compactly. */
  turnIds: string[];
  /**
   * Set when the context sent every completed turn of the session up to and including this one (what
   * `fullContext` does): the journal then need not repeat every id on every turn, which would grow it
   * quadratically. `contextTurnIds()` from `june/chat` expands it.
   */
  completedThrough?: string;
  summaryId?: string;
  /** Files of the turns sent that the context left out (no room for them), by id: their turns' text went alone. */
  filesLeftOut?: string[];
  /** What the chat's memory added to the turn (`createChat({ memory })`): the working memory's version, the turns recalled. */
  memory?: MemoryProvenance;
}

interface EntryBase {
  /** ISO time. */
  at: string;
  /** Per-session sequence number: the first entry is 1. */
  seq: number;
}
export interface SessionEntry extends EntryBase {
  type: "session";
  id: string;
  /** Who the session belongs to (`createSession({ owner })`): an app's user id, as `createChatHandler`'s `authorize` names it. */
  owner?: string;
  metadata?: Record<string, unknown>;
}
export interface TurnStartEntry extends EntryBase {
  type: "turn-start";
  turnId: string;
  input: string;
  /** The files the turn sent, as references: their bytes are in the store (`getFile`), never in the journal. */
  files?: FileRef[];
  parentTurnId?: string;
  context: ContextProvenance;
}
export interface SteerEntry extends EntryBase {
  type: "steer";
  turnId: string;
  input: string;
  /** How much of the reply was written when the steer arrived. */
  atChar: number;
}
export interface TurnEndEntry extends EntryBase {
  type: "turn-end";
  turnId: string;
  status: TurnEndStatus;
  text?: string;
  /** The model's reasoning, only when the chat journals it (`createChat({ journal: { reasoning: true } })`). */
  reasoning?: string;
  /** The sources the model cited for the reply: part of the reply, journaled with it. */
  sources?: ReplySource[];
  metadata?: TurnMetadata;
  error?: { name: string; message: string };
}
/**
 * A durable turn that let go of its process while it waits on approvals (`suspendAfterMs`): its checkpoint
 * holds the rest. Names each pending request and its tool, never the input. A later `turn-end` ends it.
 */
export interface TurnSuspendEntry extends EntryBase {
  type: "turn-suspend";
  turnId: string;
  requests: { id: string; toolName: string }[];
}
/**
 * An approval decision on one request, or (no `turnId`/`requestId`, `approved: false`, `remember: "session"`)
 * the revocation of a tool's approval for the session.
 */
export interface ApprovalEntry extends EntryBase {
  type: "approval";
  /** The turn that asked; absent only on a revocation. */
  turnId?: string;
  /** The request decided; absent only on a revocation. */
  requestId?: string;
  toolName: string;
  approved: boolean;
  reason?: string;
  remember?: "session";
  /** `"policy"`: the workflow's `toolApproval` decided, no one was asked (absent: a person decided). */
  decidedBy?: "policy";
  /** The person approved it with a changed input (the input itself is never journaled). */
  edited?: true;
}
export interface FeedbackEntry extends EntryBase {
  type: "feedback";
  turnId: string;
  score: number;
  comment?: string;
  tags?: string[];
}
export interface SummaryEntry extends EntryBase {
  type: "summary";
  throughTurnId: string;
  text: string;
}
/**
 * Makes a branch of the session current (`session.checkout`, or a new first turn in place of another):
 * the branch ending at `turnId`, or, with no `turnId`, the empty branch before the first turn. A `turn-start`
 * with no `parentTurnId` continues the current branch (so an older journal with none is one line).
 */
export interface CheckoutEntry extends EntryBase {
  type: "checkout";
  turnId?: string;
}

/**
 * Names the session (`session.rename`): from here on its title is `title`, whatever its first input says.
 * The latest rename wins; the title is kept one line, at most 80 characters, credentials masked.
 */
export interface RenameEntry extends EntryBase {
  type: "rename";
  title: string;
}

/** One journal entry, discriminated on `type`. */
export type JournalEntry =
  | SessionEntry
  | TurnStartEntry
  | SteerEntry
  | TurnEndEntry
  | TurnSuspendEntry
  | ApprovalEntry
  | FeedbackEntry
  | SummaryEntry
  | CheckoutEntry
  | RenameEntry;
export type JournalEntryType = JournalEntry["type"];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An entry as a writer hands it to `append`: the store assigns `seq` (and `at` when missing). */
export type NewJournalEntry = DistributiveOmit<JournalEntry, "seq" | "at"> & { at?: string };

/** What `ChatStore.createSession` takes. */
export interface CreateSessionOptions {
  id: string;
  /** Who the session belongs to: 1 to 1,000 characters (an app's user id). Journaled, never changed. */
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** A session as `listSessions` and `getSession` describe it. */
export interface SessionInfo {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** The latest `rename`'s title, else the first input, cut. */
  title?: string;
  turnCount: number;
  /** Who the session belongs to, as its `session` entry says; absent for a session created with no owner. */
  owner?: string;
  metadata?: Record<string, unknown>;
  /**
   * Set when the store found the session's journal corrupt (it cannot be listed, or a read of it threw
   * `JournalCorruptError`): where and what, as that error says. `turnCount` then counts what could be read.
   * Opening the session throws the error.
   */
  corrupt?: { line: number; detail: string };
}

export interface ListSessionsOptions {
  /** Only the sessions of this owner (SQL stores read them from an index on the owner). */
  owner?: string;
  limit?: number;
  /** Only sessions updated before this ISO time (for paging). */
  before?: string;
}

export interface AppendOptions {
  /** The `seq` of the last entry the writer has seen (0 for none); `ConflictError` when the journal moved on. */
  expectedSeq: number;
  /** Make the entries durable before resolving (a turn's end). */
  sync?: boolean;
  /**
   * These entries end the turn that holds this lease (its `turn-end`): a store may release the lease with them,
   * in the same statement, when the append succeeds. The writer still calls `releaseTurn` afterwards, which then
   * has nothing left to do. Stores that do not fold the two ignore it.
   */
  endsLease?: TurnLease;
  /**
   * Deletes this turn's checkpoint in the same operation (the `turn-end` of a durable turn): a store that
   * keeps checkpoints never leaves one behind a journaled end (a file store removes it right after the
   * journal line is written; a reader treats a checkpoint of an ended turn as gone).
   */
  deleteCheckpoint?: string;
}

/** A durable turn's checkpoint as a store keeps it: opaque text (the chat's JSON, maybe encrypted). */
export interface StoredCheckpoint {
  turnId: string;
  data: string;
  /** ISO time of the last write. */
  updatedAt: string;
  /**
   * Set by `listCheckpoints` when what the store keeps for this turn cannot be read (a damaged file): why.
   * `data` is then empty. One damaged checkpoint never hides the others (`getCheckpoint` of it throws
   * `CheckpointUnreadableError`).
   */
  unreadable?: string;
}

/** A held per-session turn lease. */
export interface TurnLease {
  readonly sessionId: string;
  readonly token: string;
}

/** What `acquireTurnAndAppend` takes: the append's `expectedSeq` (and `sync`), the lease's `ttlMs`. */
export interface AcquireAndAppendOptions extends Pick<AppendOptions, "expectedSeq" | "sync"> {
  /** As `acquireTurn`'s: left out, the store keeps the lease while its process holds it. */
  ttlMs?: number;
}

/** What `acquireTurnAndAppend` returns: the lease taken and the entries appended (`seq` and `at` set). */
export interface LeasedAppend {
  lease: TurnLease;
  entries: JournalEntry[];
}

/**
 * Where sessions live. Every store passes the conformance suite in `june/testing`. The memory methods
 * (`getMemory`, `putMemory`, `listMemoryVersions`, `deleteMemory`, `putRecall`, `searchRecall`, `deleteRecall`:
 * `MemoryStoreMethods`) are optional, all or none: every built-in store has them, and a chat with `memory` needs them.
 */
export interface ChatStore extends Partial<MemoryStoreMethods> {
  /**
   * `false` for a store whose sessions end with the process (`memoryStore`), so a host such as the CLI can
   * say that a session id it prints cannot be continued later. Durable stores leave it out.
   */
  readonly durable?: boolean;
  /**
   * Creates the session and journals its `session` entry (with its `owner`, when given, which `getSession` and
   * `listSessions` then give back, and `listSessions({ owner })` filters on). `ConflictError` when the id exists.
   */
  createSession(options: CreateSessionOptions): Promise<SessionInfo>;
  getSession(id: string): Promise<SessionInfo | undefined>;
  /** Newest (by `updatedAt`) first. */
  listSessions(options?: ListSessionsOptions): Promise<SessionInfo[]>;
  /** Removes the session and its journal; false when there was none. */
  deleteSession(id: string): Promise<boolean>;
  /** Atomic: all entries or none. Returns them with `seq` and `at` set. */
  append(sessionId: string, entries: NewJournalEntry[], options: AppendOptions): Promise<JournalEntry[]>;
  read(sessionId: string, options?: { fromSeq?: number }): Promise<JournalEntry[]>;
  /** Takes the session's turn lease; throws `SessionBusyError` when another holder has it. */
  acquireTurn(sessionId: string, options?: { ttlMs?: number }): Promise<TurnLease>;
  releaseTurn(lease: TurnLease): Promise<void>;
  /**
   * Optional: takes the session's turn lease and appends `entries` after `expectedSeq` in one atomic operation
   * (for a database, one statement: one round trip where `acquireTurn` and `append` make two). Both happen or
   * neither does: `SessionBusyError` when another holder has the lease, `ConflictError` when the journal moved
   * past `expectedSeq` (either may be thrown when both hold), `SessionNotFoundError`, or a `TypeError` for bad or
   * no entries; then no lease is taken and nothing is written. The lease is released like any other (`releaseTurn`,
   * `AppendOptions.endsLease`). A chat uses it for a turn whose context it can build before it holds the lease
   * (see docs/stores.md), and takes the lease and appends in two calls with a store that lacks it. A wrapper that
   * replaces `acquireTurn` or `append` must replace or leave out this one too: the built-in store that has it
   * defines it non-enumerable, so a store copied by spreading (`{ ...store, acquireTurn }`) does not.
   */
  acquireTurnAndAppend?(sessionId: string, entries: NewJournalEntry[], options: AcquireAndAppendOptions): Promise<LeasedAppend>;
  /**
   * Writes (or replaces) the checkpoint of an unfinished turn, atomically: a reader sees the old one or the
   * new one, never a mix. Stores that keep checkpoints (every built-in one) have all four checkpoint methods;
   * durable turns need them. `SessionNotFoundError` for an unknown session.
   */
  putCheckpoint?(sessionId: string, turnId: string, data: string): Promise<void>;
  /** The turn's checkpoint, or undefined. `CheckpointUnreadableError` when what is stored is damaged. */
  getCheckpoint?(sessionId: string, turnId: string): Promise<StoredCheckpoint | undefined>;
  /**
   * The session's checkpoints, in the order of their last write (oldest first). One the store cannot read is
   * listed with `unreadable` (why), not thrown.
   */
  listCheckpoints?(sessionId: string): Promise<StoredCheckpoint[]>;
  /** Deletes the turn's checkpoint; false when there was none. */
  deleteCheckpoint?(sessionId: string, turnId: string): Promise<boolean>;
  /**
   * Keeps a file's bytes in the session, by content: the same bytes twice are one stored copy (the first
   * `mediaType` kept). Resolves to its reference (`id` = `sha256`, the `filename` given). Stores that keep files
   * (every built-in one) have both file methods; a chat takes files only with them. `deleteSession` deletes the
   * session's files with it. `SessionNotFoundError` for an unknown session.
   */
  putFile?(sessionId: string, file: NewFile): Promise<FileRef>;
  /** A file `putFile` kept in the session, or undefined (no such file, or no such session). */
  getFile?(sessionId: string, fileId: string): Promise<StoredFile | undefined>;
  /** Releases resources (handles, pools). Optional. */
  close?(): Promise<void>;
}
