import type { LanguageModel, ModelMessage } from "ai";
import type { MemoryVersion } from "../../stores/memory-types.js";
import type { Spent } from "../../cost/budget.js";
import type { ScheduleOptions } from "../queue/schedules.js";
import type { ScheduleInfo } from "../queue/queue.js";
import type { ChatStore, ListSessionsOptions, SessionInfo, StoredFile } from "../../stores/types.js";
import type { FileLimits, TurnInput } from "../files/turn-input.js";
import type { Responder, ResponderResult } from "./responder-types.js";
import type { PendingApproval, Turn, TurnFeedback, TurnRecord } from "./turn-types.js";

/** A conversation: its history, journal and each turn's lifecycle. */
export interface Session {
  readonly id: string;
  /**
   * Starts a turn at once, with text or `{ text, files }`. A refused input throws here, with nothing stored:
   * `TypeError`, `InputTooLargeError`, `FileRejectedError`. `SessionBusyError` when a turn of this process
   * runs in the session.
   */
  send(input: string | TurnInput): Turn;
  /**
   * A file one of the session's turns sent (on any branch): its reference as that turn journaled it and its
   * bytes, from the store; undefined when no turn sent it.
   */
  file(fileId: string): Promise<StoredFile | undefined>;
  /**
   * Puts a turn on the chat's queue (`createChat({ queue })`) and resolves to its id at once; a worker
   * (`createWorker`) runs it with that id, after the session's earlier queued turns. `NoQueueError` without a
   * queue. See docs/workers.md.
   */
  enqueue(input: string): Promise<{ turnId: string }>;
  /**
   * The current branch's journaled turns, oldest first. The records are the session's own, shared and
   * frozen (read-only, and so are the objects they hold: copy a record to change it); a new list each call.
   * A turn that changes later (its end, feedback) is a new record in the next call's list.
   */
  turns(): Promise<TurnRecord[]>;
  /** What the context would send for the next turn. */
  messages(): Promise<ModelMessage[]>;
  /** The turn running in this session in this process, if any. */
  readonly currentTurn: Turn | undefined;
  /**
   * Journals feedback on a completed turn; a later one supersedes it (`TurnRecord.feedback` is the latest).
   * `TypeError` or `RangeError` for bad feedback, `TurnNotFoundError` for an unknown turn,
   * `TurnNotCompletedError` for a turn that did not complete. Resolves to the feedback as journaled
   * (the comment redacted).
   */
  feedback(turnId: string, feedback: TurnFeedback): Promise<TurnFeedback>;
  /**
   * Answers a turn's input again (the current branch's last turn by default) in a new turn that starts a
   * branch from that turn's parent and makes it current. `TurnNotFoundError` for an unknown turn.
   */
  regenerate(turnId?: string): Turn;
  /** Sends `input` in a turn's place: a new turn on a new branch from that turn's parent, made current. */
  edit(turnId: string, input: string | TurnInput): Turn;
  /**
   * The alternatives at a turn's position (the turns sharing its parent, itself included), oldest first;
   * read-only records, as `turns()` gives them.
   */
  branches(turnId: string): Promise<TurnRecord[]>;
  /**
   * The alternatives at every turn of the current branch that has any, in one read (what a client shows as
   * "2 / 3" beside each such turn): turn id → the ids at its position, itself included, oldest first.
   * Turns with no alternative are left out.
   */
  alternatives(): Promise<Record<string, string[]>>;
  /**
   * What the session spent: every turn on every branch, however it ended, unknown USD staying unknown (see the
   * cost page). What its `session` budget counts, `GET /sessions/:id` serves as `cost` and Studio shows.
   */
  cost(): Promise<Spent>;
  /**
   * Names the session: journals a `rename` entry, so `listSessions` and `getSession` give `title` from now
   * on, in every process and after a restart, instead of the first input. Whitespace is collapsed and
   * credentials masked. `TypeError` for a title that is not a string or is blank, `RangeError` past 80
   * characters. Resolves to the title as journaled.
   */
  rename(title: string): Promise<string>;
  /**
   * Makes the branch through a turn current (down to its newest turn) and journals that, so a reopened
   * session comes back on it. Resolves to the branch's turns, as `turns()` would. `SessionBusyError` while a
   * turn runs in this process.
   */
  checkout(turnId: string): Promise<TurnRecord[]>;
  /**
   * Revokes a tool's approval for the session (see `turn.approve(id, { remember: "session" })`) and
   * journals that, so the tool asks again. Resolves to `false` when the tool was not approved for the session.
   */
  revokeApproval(toolName: string): Promise<boolean>;
  /** The tools approved for the session and not revoked, sorted by name. */
  rememberedApprovals(): Promise<string[]>;
  /**
   * The requests the session's unfinished durable turns wait on (suspended, interrupted, or running here),
   * oldest first, inputs included: a person must see what they approve.
   */
  pendingApprovals(): Promise<PendingApproval[]>;
  /**
   * Continues a suspended (or interrupted, resumable) durable turn from its checkpoint, in this process:
   * takes the session's lease (`SessionBusyError` if another process holds it) and resolves to the live
   * turn once its requests are open again, with their ids. `TurnNotResumableError` when it cannot be;
   * `CheckpointMismatchError` when the workflow lost the step that waited (cancel the turn).
   */
  resume(turnId: string): Promise<Turn>;
  /**
   * Ends an unfinished turn without running anything: a turn running here is canceled; a suspended or
   * interrupted one is journaled `canceled` and its checkpoint deleted. `TurnNotResumableError` for one
   * that ended.
   */
  cancel(turnId: string): Promise<void>;
  /**
   * Answers a turn's input again with exactly the context it was answered with (rebuilt from its
   * provenance), by the chat's responder or `options.responder`. Nothing is journaled.
   */
  replay(turnId: string, options?: { responder?: Responder }): Promise<ResponderResult>;
}

/** A responder turned into a conversation. Returned by `createChat`. */
export interface Chat {
  readonly responder: Responder;
  readonly store: ChatStore;
  /**
   * The longest input a turn (or a steer) takes, in characters (`createChat({ maxInputChars })`, default
   * 1,000,000): the one limit, which `createChatHandler` enforces too, before it opens a session.
   */
  readonly maxInputChars?: number;
  /**
   * What a turn's files may be (`createChat({ files })`): the largest file in bytes, the most files in a turn,
   * the media types taken, and whether a server may fetch a file's URL for the chat (`allowUrl`).
   */
  readonly files?: FileLimits;
  /**
   * A new session, journaled at once. `owner` (an app's user id) is journaled with it: `listSessions({ owner })`
   * lists that owner's sessions, and `createChatHandler` serves it only to that owner.
   */
  createSession(options?: { id?: string; owner?: string; metadata?: Record<string, unknown> }): Promise<Session>;
  /** An existing session; `SessionNotFoundError` when there is none. */
  openSession(id: string): Promise<Session>;
  /** Newest first; with `owner`, only that owner's sessions. */
  listSessions(options?: ListSessionsOptions): Promise<SessionInfo[]>;
  /** Removes the session and its journal. */
  deleteSession(id: string): Promise<boolean>;
  /**
   * Schedules a turn on the chat's queue: a recurring `cron` (in `timezone`, default UTC) or a one-off `runAt`,
   * in a session or a new one each run; resolves to the schedule as listed. `ScheduleInvalidError` (nothing
   * scheduled) for a bad option, `SessionNotFoundError` for an unknown session, `NoQueueError` without a queue.
   */
  schedule(options: ScheduleOptions): Promise<ScheduleInfo>;
  /** The chat's schedules, by id. */
  schedules(): Promise<ScheduleInfo[]>;
  /**
   * An owner's working memory (`createChat({ memory })`), to read and set: `get()` its latest version, `set(text)`
   * a new one (credentials masked; the same text again is no new version), `versions()` every version kept, oldest
   * first. Throws a `TypeError` in a chat without `memory`.
   */
  memory(owner: string): OwnerMemory;
  /**
   * Deletes the owner's working memory with its versions (their sessions' too, with a session scope) and their
   * turns in the recall index: later turns neither get the memory nor recall those turns.
   */
  forgetMemory(owner: string): Promise<void>;
  /** Removes a schedule; `false` when there was none by that id. */
  unschedule(id: string): Promise<boolean>;
}

/** What a chat factory is called with. */
export interface ChatFactoryOptions {
  /**
   * The model to use instead of the module's own: the CLI passes the one `--model PROVIDER:ID` (or
   * `JUNE_MODEL`) names, and nothing when none is given.
   */
  model?: LanguageModel;
}

/**
 * A chat module's default export when the chat should run on any model: a function of `{ model }` that
 * returns a `Chat` or a `Responder` (or a promise of one). `june chat|ask|studio FILE --model P:ID` calls it
 * with that model; with no `--model` it is called with `{}`, so a default keeps the module's own model.
 *
 * @example
 * export default (({ model = openai("gpt-5-mini") } = {}) =>
 *   createChat({ model, store: fileStore(".june/chat") })) satisfies ChatFactory;
 */
export type ChatFactory = (options: ChatFactoryOptions) => Chat | Responder | Promise<Chat | Responder>;

/** An owner's working memory, as `chat.memory(owner)` reads and sets it. */
export interface OwnerMemory {
  get(): Promise<MemoryVersion | undefined>;
  set(text: string): Promise<MemoryVersion>;
  versions(): Promise<MemoryVersion[]>;
  /** Resolves once every turn that completed so far is in the recall index (indexing runs after each turn, off its path). */
  indexed(): Promise<void>;
}
