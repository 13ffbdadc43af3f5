import type { ApprovalRequest, RunResult } from "../../runtime/types.js";
import type { ContextProvenance, FileRef, TurnMetadata } from "../../stores/types.js";
import type { TurnEvent } from "./event-types.js";
import type { ReplySource } from "../../ai-sdk/model-asides.js";

export type TurnStatus = "running" | "completed" | "failed" | "canceled" | "suspended" | "blocked";

export interface TurnResult {
  text: string;
  /** What the model reasoned on the way (thinking, reasoning summaries; parts joined by a blank line), when it sent any. */
  reasoning?: string;
  /** The sources the model cited for the reply (web-search results, documents), in order, when it cited any. */
  sources?: ReplySource[];
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
  /** The model's reasoning, when the chat journals it (`createChat({ journal: { reasoning: true } })`). */
  reasoning?: string;
  /** The sources the model cited for the reply, journaled with it. */
  sources?: ReplySource[];
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
