import { JuneError } from "../errors/june-error.js";

/** `turn.steer(input)` on a turn whose responder's execution has no `steer`. */
export class SteerNotSupportedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.SteerNotSupportedError");
  override readonly name = "SteerNotSupportedError";
  readonly turnId: string;
  constructor(turnId: string) {
    super(`Turn "${turnId}" cannot be steered: its responder's execution has no steer()`);
    this.turnId = turnId;
  }
}

/** The controls a turn takes (see `TurnCommand`): the `control` a `TurnEndedError` names. */
export type TurnControlName = "approve" | "deny" | "answer" | "cancel" | "steer";

/**
 * A control (`steer`, or any `turn.control(command)`) used on a turn that is already over (or ending, or
 * suspended in this process): there is nothing left for it to act on. The server answers 409.
 */
export class TurnEndedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnEndedError");
  override readonly name = "TurnEndedError";
  readonly turnId: string;
  /** The control that came too late. */
  readonly control: TurnControlName;
  /** The request an `approve` or `deny` that came too late named. */
  readonly approvalId?: string;
  constructor(turnId: string, detail = "it has already ended", options: { control?: TurnControlName; approvalId?: string } = {}) {
    const control = options.control ?? "steer";
    const what =
      control === "steer"
        ? "cannot take more input"
        : control === "cancel"
          ? "cannot be canceled"
          : control === "answer"
            ? `cannot answer question "${options.approvalId ?? "?"}"`
            : `cannot decide approval "${options.approvalId ?? "?"}"`;
    super(`Turn "${turnId}" ${what}: ${detail}`);
    this.turnId = turnId;
    this.control = control;
    if (options.approvalId !== undefined) this.approvalId = options.approvalId;
  }
}

/** The `TurnEndedError` a command gets from a turn that is over. */
export function endedError(turnId: string, command: { type: TurnControlName; approvalId?: string; requestId?: string }): TurnEndedError {
  const id = command.approvalId ?? command.requestId;
  return new TurnEndedError(turnId, undefined, { control: command.type, ...(id !== undefined && { approvalId: id }) });
}

/**
 * `turn.control({ type: "approve" | "deny", approvalId })` for a request the turn does not wait on: an id it
 * never asked, a request it withdrew, or one already decided. The server answers 409.
 */
export class ApprovalNotPendingError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ApprovalNotPendingError");
  override readonly name = "ApprovalNotPendingError";
  readonly turnId: string;
  readonly approvalId: string;
  constructor(options: { turnId: string; approvalId: string }) {
    super(`No pending approval "${options.approvalId}" in turn "${options.turnId}" (unknown, withdrawn or already decided)`);
    this.turnId = options.turnId;
    this.approvalId = options.approvalId;
  }
}

/** An input longer than the chat's `maxInputChars`. Nothing was journaled. */
export class InputTooLargeError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.InputTooLargeError");
  override readonly name = "InputTooLargeError";
  /** The input's length, in characters. */
  readonly length: number;
  readonly maxInputChars: number;
  constructor(length: number, maxInputChars: number) {
    super(`Input is too large: ${length} characters, the chat allows at most ${maxInputChars} (maxInputChars)`);
    this.length = length;
    this.maxInputChars = maxInputChars;
  }
}

/** A responder whose execution broke the contract: `respond()` threw or returned no `result`, or `result` had no string `text`. */
export class ResponderContractError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ResponderContractError");
  override readonly name = "ResponderContractError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A context builder that threw or returned something other than `ModelMessage[]` or a `ContextResult`. */
export class ContextBuildError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ContextBuildError");
  override readonly name = "ContextBuildError";
  readonly builder: string;
  constructor(builder: string, message: string, options?: { cause?: unknown }) {
    super(`Context builder "${builder}" failed: ${message}`, options);
    this.builder = builder;
  }
}

/** A turn id the session does not know (`session.feedback` on an unknown turn). */
export class TurnNotFoundError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnNotFoundError");
  override readonly name = "TurnNotFoundError";
  readonly sessionId: string;
  readonly turnId: string;
  constructor(sessionId: string, turnId: string) {
    super(`Session "${sessionId}" has no turn "${turnId}"`);
    this.sessionId = sessionId;
    this.turnId = turnId;
  }
}

/** Feedback on a turn that did not complete (it is running, failed, was canceled or interrupted). */
export class TurnNotCompletedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnNotCompletedError");
  override readonly name = "TurnNotCompletedError";
  readonly sessionId: string;
  readonly turnId: string;
  /** The turn's status: `running`, `failed`, `canceled` or `interrupted`. */
  readonly status: string;
  constructor(sessionId: string, turnId: string, status: string) {
    super(`Turn "${turnId}" is ${status}: feedback is taken only on a completed turn`);
    this.sessionId = sessionId;
    this.turnId = turnId;
    this.status = status;
  }
}

/**
 * A durable turn that let go of its process while it waited on approvals (`durable.suspendAfterMs`): its
 * `result` rejects with this. Nothing is lost: `session.resume(turnId)` continues it, from any process.
 */
export class TurnSuspendedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnSuspendedError");
  override readonly name = "TurnSuspendedError";
  readonly sessionId: string;
  readonly turnId: string;
  /** The requests it waits on: id and tool name (the inputs: `session.pendingApprovals()`). */
  readonly requests: { id: string; toolName: string }[];
  constructor(options: { sessionId: string; turnId: string; requests: { id: string; toolName: string }[] }) {
    const tools = [...new Set(options.requests.map((r) => r.toolName))].join(", ");
    super(
      `Turn "${options.turnId}" is suspended, waiting on ${options.requests.length} approval${options.requests.length === 1 ? "" : "s"}` +
        `${tools ? ` (${tools})` : ""}: resume it with session.resume("${options.turnId}")`,
    );
    this.sessionId = options.sessionId;
    this.turnId = options.turnId;
    this.requests = options.requests;
  }
}

/** `session.resume(turnId)` or `session.cancel(turnId)` on a turn that cannot be resumed (it ended, or has no checkpoint). */
export class TurnNotResumableError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TurnNotResumableError");
  override readonly name = "TurnNotResumableError";
  readonly sessionId: string;
  readonly turnId: string;
  constructor(sessionId: string, turnId: string, detail: string) {
    super(`Turn "${turnId}" of session "${sessionId}" cannot be resumed: ${detail}`);
    this.sessionId = sessionId;
    this.turnId = turnId;
  }
}
