import type { Guardrails } from "../guardrails/types.js";
import type { ScheduleOptions } from "../worker/schedules.js";
import type { ScheduleInfo } from "../worker/queue.js";
import type { ToolApprovalPolicy } from "../runtime/tool-approval.js";
import type { LanguageModel, ModelMessage, UserModelMessage } from "ai";
import type { ApprovalDecision, ApprovalRequest, DecisionOutcome, ModelInfo, PolicyApproval, RunResult, Usage } from "../runtime/types.js";
import type { ResponderTraceNode } from "./trace/responder-trace.js";
import type { DurableOption } from "./durable/checkpoint-codec.js";
import type { TelemetryOption } from "../telemetry/options.js";
import type { Cost, Prices } from "../cost/price.js";
import type { Budget, Spent } from "../cost/budget.js";
import type { AgentProvenance, ChatStore, ContextProvenance, FileRef, HandoffRecord, JournalEntry, ListSessionsOptions, SessionInfo, StoredFile, TurnMetadata } from "../stores/types.js";
import type { FileLimits, TurnFile, TurnInput } from "./files/turn-input.js";

/** A piece of the reply as it is written. */
export interface TextDeltaEvent {
  type: "text-delta";
  text: string;
}
/**
 * A snapshot of the turn's trace tree: an agent turn's run (the runtime's `TraceNode`), a model turn's call,
 * or whatever a custom responder reports (see `ResponderTraceNode`).
 */
export interface RunUpdateEvent {
  type: "run-update";
  tree: ResponderTraceNode;
}
/** A tool call waiting for `turn.approve(id)` or `turn.deny(id, reason)`. */
export interface ApprovalRequestEvent {
  type: "approval-request";
  request: ApprovalRequest;
}
/** The live events of a turn, discriminated on `type`. */
/** A question the workflow asks a person (`<AskUser />`): answer it with `turn.answer(request.id, value)`. */
export interface InputRequestEvent {
  type: "input-request";
  request: InputRequest;
}

/** A question waiting for a person's answer. */
export interface InputRequest {
  id: string;
  question: string;
  stepId?: string;
  toolCallId?: string;
}

/**
 * A tool call the workflow's `toolApproval` (or a tool guardrail, or "remember for this session") decided:
 * no one is asked, nothing is pending. The turn emits it once per decision, after the run update that holds it.
 */
export interface PolicyDecisionEvent {
  type: "policy-decision";
  decision: PolicyApproval;
}

/** What a turn emits: its responder's events, and the decisions taken by policy (a responder's own `policy-decision`s are dropped). */
export type TurnEvent = TextDeltaEvent | RunUpdateEvent | ApprovalRequestEvent | InputRequestEvent | PolicyDecisionEvent;

/** What a responder gets for each turn. */
export interface RespondOptions {
  /** The user's input: the turn's text (`""` for a turn of files alone). */
  input: string;
  /** The files the turn sent, with their bytes, in order (absent when none). */
  files?: readonly TurnFile[];
  /**
   * The turn's user message as the model gets it: the text, then each file as an AI SDK file part (a text
   * turn's is `{ role: "user", content: input }`). Always set by a session: append it to `messages`.
   */
  message?: UserModelMessage;
  /** The conversation so far, as the chat's context built it. */
  messages: ModelMessage[];
  /** Aborts when the turn is canceled. */
  signal: AbortSignal;
  sessionId: string;
  turnId: string;
  /**
   * The agent that holds the conversation, as the session's journal says (the latest earlier turn on this
   * branch that names one: its `metadata.handoff.to`, else its `metadata.agent.id`); absent when none does.
   * A responder of several agents (`agentResponder({ agents })`) answers with it.
   */
  agent?: string;
  /**
   * Given on a durable turn (the responder has `durable`): a responder that can resume calls it with each
   * new state and waits for it (the chat stores it) before going on, above all before an approved tool runs.
   */
  onCheckpoint?: (checkpoint: ResponderCheckpoint) => Promise<void>;
  /**
   * The turn's OpenTelemetry settings when the chat records spans (`false` when the chat's `telemetry` is
   * `false`): a responder that starts a run passes it on (`start(element, { telemetry })`) so the run's
   * spans nest under the turn's. `modelResponder` and `agentResponder` do.
   */
  telemetry?: TelemetryOption;
  /** The chat's prices (`createChat({ prices })`): a responder that starts a run passes them on (`start(element, { prices })`). */
  prices?: Prices;
  /** The chat's budgets (`createChat({ budget })`): a responder stops before a model call once one is spent (`start(element, { budget, spent })`). */
  budget?: Budget;
  /** What the session's other turns spent, counted against `budget.session`. */
  spent?: Spent;
  /**
   * The chat's `toolApproval` (`createChat({ toolApproval })`): a workflow responder applies it to every step
   * with no policy of its own (`agentResponder` does, through `start({ toolApproval })`).
   */
  toolApproval?: ToolApprovalPolicy;
  /** The chat's tool guardrails (`createChat({ guardrails: { tool } })`), for a workflow responder to apply to every step. */
  guardrails?: Pick<Guardrails, "tool">;
}

/** A durable turn's state as its responder hands it over. JSON-safe. */
export interface ResponderCheckpoint {
  /** Whatever the responder needs to go on (`agentResponder`: the run's `RunCheckpoint`). */
  state: unknown;
  /** The requests the turn waits on now, inputs included (listed by `session.pendingApprovals()`). */
  requests: readonly ApprovalRequest[];
}

/** What `responder.resume()` gets: the turn as it was first answered, and its last checkpoint's `state`. */
export interface ResumeOptions extends RespondOptions {
  checkpoint: unknown;
}

/** The metadata a responder may report; June keeps only these fields. */
export interface ResponderMetadata {
  /** The agent that answered (a responder of several agents). */
  agent?: AgentProvenance;
  /** The turn handed the conversation to another agent. */
  handoff?: HandoffRecord;
  model?: ModelInfo;
  usage?: Partial<Usage>;
  /** What the turn cost; left out when a model's price is not known (an unknown cost, never 0). */
  cost?: Cost;
  finishReason?: string;
}

export interface ResponderResult {
  text: string;
  metadata?: ResponderMetadata;
  /** An agent turn's `RunResult`, kept in memory only. */
  run?: RunResult;
}

/** One turn's execution, returned by `respond()` right away. */
export interface ResponderExecution {
  result: Promise<ResponderResult>;
  /** Read once, in order, as the turn runs. */
  events?: AsyncIterable<TurnEvent>;
  readonly requests?: readonly ApprovalRequest[];
  /** Tool calls decided by policy (`toolApproval`) so far, oldest first: the turn journals each once. */
  readonly policyDecisions?: readonly PolicyApproval[];
  /**
   * Decides one of `requests` and says what happened: `decided`, or `not-pending` (unknown, withdrawn or
   * decided already). An approval's `input`, when given, replaces the model's once checked (see
   * `RunHandle.decide`: a promise then, rejected with `ToolInputInvalidError` or `ApprovalEditRefusedError`
   * and nothing decided).
   */
  decide?(id: string, decision: ApprovalDecision): DecisionOutcome | Promise<DecisionOutcome>;
  /** Answers a question (a request with `question`): see `Turn.answer`. Says what happened, as `decide` does. */
  answer?(id: string, value: unknown): DecisionOutcome;
  /**
   * Checks an answer to a question before `answer` is called with it (the chat's input and tool guardrails):
   * rejects with the reason it is refused (`GuardrailTrippedError`), the question still pending.
   */
  checkAnswer?(id: string, value: unknown): Promise<void>;
  /** Takes more input while the turn runs. */
  steer?(input: string): void | Promise<void>;
  /** A durable execution's latest checkpoint, if any. */
  checkpoint?(): ResponderCheckpoint | undefined;
  /** A resumed execution: resolves once its restored requests are in `requests` (or it ended). */
  restored?: Promise<void>;
  /**
   * What the turn's model calls spent so far (`usage`, `cost` when known, `model`). Read when the turn ends
   * without a result (failed, blocked, canceled): its journaled record keeps what it spent, and the session's
   * cost and budget count it. June's responders give it; a custom one that leaves it out records no usage then.
   */
  spent?(): ResponderMetadata | undefined;
}

/** Answers turns. See the responders page. */
export interface Responder {
  /** `"model"`, `"agent"`, or `"custom"` (the default). */
  kind?: string;
  id?: string;
  version?: string;
  /**
   * The agents of a responder of several (`agentResponder({ agents })`): with it, the session tells each turn
   * which of them holds the conversation (`RespondOptions.agent`, from the journal).
   */
  readonly agents?: readonly string[];
  respond(options: RespondOptions): ResponderExecution;
  /**
   * Makes the responder's turns durable: checkpointed while unfinished, suspended after
   * `suspendAfterMs` waiting on approvals alone, resumable from any process (needs `resume`).
   */
  durable?: DurableOption;
  /** Continues a durable turn from its last checkpoint (`session.resume`). */
  resume?(options: ResumeOptions): ResponderExecution;
}

export type TurnStatus = "running" | "completed" | "failed" | "canceled" | "suspended" | "blocked";

export interface TurnResult {
  text: string;
  /** The turn's provenance, as journaled. */
  metadata: TurnMetadata;
  /** The `RunResult` of an `agentResponder` turn, in memory only. */
  run?: RunResult;
}

export interface ApproveOptions {
  /** Also approve later calls of the same tool in this session. */
  remember?: "session";
  /**
   * Runs the tool with this input in place of the model's, once it passed what the model's own input passes
   * (`approve` then returns a promise): the tool's input schema (`ToolInputInvalidError`), the tool guardrails
   * and the `toolApproval` policy (`ApprovalEditRefusedError`, with the guardrail's or policy's reason); a
   * refused edit leaves the request pending. Fields shown redacted (`"[redacted]"` in `inputValue`) and left
   * so are taken from the model's input. The model sees the call as it ran; the journal records that the
   * input was edited, never the input.
   */
  input?: unknown;
}

/**
 * A control for a running turn, as `turn.control` takes it (and the server's `approve`, `deny`, `cancel`
 * and `steer` routes, and the bus between processes, carry it).
 */
export type TurnCommand = ApproveCommand | DenyCommand | AnswerCommand | CancelCommand | SteerCommand;

/** Answers a question the turn asked (an `input-request`): its value is the `ask_user` tool's result. */
export interface AnswerCommand {
  type: "answer";
  requestId: string;
  value: unknown;
}

/** Runs the tool call the turn waits on (`remember: "session"`: and later calls of the same tool). */
export interface ApproveCommand {
  type: "approve";
  approvalId: string;
  remember?: "session";
  /** Runs the tool with this input in place of the model's (see `ApproveOptions.input`). */
  input?: unknown;
}

/** Refuses the tool call the turn waits on; `reason` is what the model is told. */
export interface DenyCommand {
  type: "deny";
  approvalId: string;
  reason?: string;
}

/** Ends the running turn as `canceled`. */
export interface CancelCommand {
  type: "cancel";
}

/** More input for the running turn (see `turn.steer`). */
export interface SteerCommand {
  type: "steer";
  input: string;
}

/** One turn: its events (buffered: every iteration starts from the first), result and controls. */
export interface Turn extends AsyncIterable<TurnEvent> {
  readonly id: string;
  readonly sessionId: string;
  readonly status: TurnStatus;
  readonly result: Promise<TurnResult>;
  readonly requests: readonly ApprovalRequest[];
  /** The files the turn sent, as the journal keeps them (references; `session.file(id)` reads the bytes). */
  readonly files: readonly FileRef[];
  /**
   * Approves a pending request; `false` when the turn does not wait on it (`control` says why, typed). With
   * `input` (an edit; options that hold the key), a promise: the tool runs with it once checked (see
   * `ApproveOptions.input`), and it rejects with `ToolInputInvalidError` or `ApprovalEditRefusedError` when
   * refused (still pending).
   */
  approve(id: string, options?: ApproveOptions & { input?: undefined }): boolean;
  approve(id: string, options: ApproveOptions): Promise<boolean>;
  /** Denies a pending request; `false` when the turn does not wait on it (`control` says why, typed). */
  deny(id: string, reason?: string): boolean;
  /**
   * Answers a question the turn asked (`input-request`, a request with `question`): `value` (a string, or any
   * JSON value) is what the model gets as the `ask_user` tool's result. The journal records that it was
   * answered, never the answer. `false` when the turn does not wait on that question.
   */
  answer(id: string, value: unknown): boolean;
  /** Cancels the turn; a no-op once it is over. */
  cancel(): void;
  /** Resolves once the responder took the input. */
  steer(input: string): Promise<void>;
  /**
   * Applies a control and fails loudly when the turn cannot take it: `ApprovalNotPendingError` (no such
   * pending request), `TurnEndedError` (the turn is over), `SteerNotSupportedError`, `InputTooLargeError`
   * or a `TypeError` (bad steer input). The server maps these to HTTP statuses in one place.
   *
   * @example
   * await turn.control({ type: "approve", approvalId: request.id });
   */
  control(command: TurnCommand): Promise<void>;
  /**
   * Keeps a durable turn from suspending until the returned release is called (a person is at an approval
   * prompt); a no-op on a turn that cannot suspend.
   */
  holdSuspend?(): () => void;
}

/**
 * Feedback on a completed turn: `score` is `1` (up), `-1` (down) or a number from 0 to 1; `comment` and
 * `tags` are optional. The latest feedback on a turn supersedes the earlier.
 */
export interface TurnFeedback {
  score: number;
  comment?: string;
  tags?: string[];
}

/** A journaled turn as `session.turns()` returns it: frozen, shared by every call that hands it out. */
export interface TurnRecord {
  id: string;
  /** The turn's text (`""` for a turn of files alone). */
  input: string;
  /** The files the turn sent, as references (absent when none): `session.file(id)` reads their bytes. */
  files?: FileRef[];
  steers: { input: string; atChar: number }[];
  status: TurnStatus | "interrupted";
  /**
   * True on a durable turn that did not end and has a checkpoint (`suspended`, or `interrupted` by a process
   * that died): `session.resume(turnId)` continues it, `session.cancel(turnId)` ends it.
   */
  resumable?: boolean;
  /**
   * Set on a durable turn that did not end whose checkpoint cannot be read (damaged, or encrypted with another
   * `durable.encryptionKey` or none): why. It cannot resume (`session.resume` throws `CheckpointUnreadableError`)
   * and waits on nothing; `session.cancel(turnId)` ends it. The session's other turns are not affected.
   */
  checkpointUnreadable?: string;
  text?: string;
  error?: { name: string; message: string };
  metadata?: TurnMetadata;
  /** The latest feedback on the turn, if any. */
  feedback?: TurnFeedback;
  context?: ContextProvenance;
  parentTurnId?: string;
  startedAt: string;
  endedAt?: string;
}

/**
 * A request an unfinished durable turn waits on, as `session.pendingApprovals()` lists it: the run's request
 * (`retry` set on an approved call that may have begun when its process stopped) and the turn that waits.
 */
export type PendingApproval = ApprovalRequest & { readonly turnId: string };

/** What a context builder returns. */
export interface ContextResult {
  name: string;
  messages: ModelMessage[];
  turnIds: string[];
  summaryId?: string;
  /**
   * A summary the builder just wrote (`summarizedContext`): the session journals it as a `summary` entry
   * with the turn's `turn-start`, so later turns reuse it. Builders stay pure: they never write the journal.
   */
  summary?: { throughTurnId: string; text: string };
  /** Ids of files of the sent turns that the builder left out (no room for them): recorded in the provenance. */
  filesLeftOut?: string[];
}

export interface ContextOptions {
  sessionId: string;
  /** The new turn's input. */
  input: string;
  /** The new turn's files (absent when none). */
  files?: readonly FileRef[];
  /**
   * The session's journal, for builders that need more than the turns. Read-only. Made when first read (a
   * session keeps most turn-starts and turn-ends only in its turn records, and rebuilds them, equal, for this
   * list): a builder that never reads it costs no copy of the journal.
   */
  entries: readonly JournalEntry[];
  /**
   * An object that lives as long as the open session object does (set by the session; absent when a builder is
   * called by hand). A builder that keeps work between turns keys it by this (a `WeakMap`), so it goes when the
   * session is dropped: never by a record or an entry, which a store may keep for as long as it lives.
   */
  scope?: object;
}

/** Decides what earlier turns every responder sees. */
export type ContextBuilder = (
  history: TurnRecord[],
  options: ContextOptions,
) => ContextResult | ModelMessage[] | Promise<ContextResult | ModelMessage[]>;

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
