import { JuneError } from "../errors/june-error.js";
import type { RunResult } from "./types.js";

/** A workflow that cannot be rendered: names the element at fault. Nothing ran. */
export class RenderError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.RenderError");
  override readonly name = "RenderError";
  readonly element: string;
  constructor(message: string, options: { element: string; cause?: unknown }) {
    super(message, options);
    this.element = options.element;
  }
}

/** A run that failed, was canceled or timed out. `result` holds what it had done. */
export class RunError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.RunError");
  override readonly name = "RunError";
  readonly result: RunResult;
  constructor(message: string, options: { result: RunResult; cause?: unknown }) {
    super(message, options);
    this.result = options.result;
  }
}

/** A run or a step that ran past its `timeout`, or a request to another process (`redisTurnEvents`) past its own. */
export class TimeoutError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.TimeoutError");
  override readonly name = "TimeoutError";
  readonly timeout: number;
  readonly stepId?: string;
  constructor(message: string, options: { timeout: number; stepId?: string }) {
    super(message);
    this.timeout = options.timeout;
    this.stepId = options.stepId;
  }
}

/** A run canceled by `cancel()` or its `signal`. */
export class CanceledError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.CanceledError");
  override readonly name = "CanceledError";
  constructor(message = "The run was canceled", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A step result that cannot be kept in a checkpoint (not JSON-safe); names the step and where in the value. */
export class StepResultNotSerializableError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StepResultNotSerializableError");
  override readonly name = "StepResultNotSerializableError";
  readonly stepId: string;
  /** Where in the result the offending value sits, e.g. `result.items[2].at`. */
  readonly path: string;
  constructor(options: { stepId: string; path: string; found: string }) {
    super(
      `Step "${options.stepId}" returned a result that is not JSON-safe (${options.path} is ${options.found}); ` +
        "a durable run keeps step results in its checkpoint: return plain objects, arrays, strings, finite numbers, booleans or null",
    );
    this.stepId = options.stepId;
    this.path = options.path;
  }
}

/** A checkpoint that does not fit the workflow any more: the step that waited on approval is gone. */
export class CheckpointMismatchError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.CheckpointMismatchError");
  override readonly name = "CheckpointMismatchError";
  /** The waiting steps the workflow no longer has. */
  readonly stepIds: string[];
  constructor(options: { stepIds: string[]; turnId?: string }) {
    const which = options.stepIds.map((id) => `"${id}"`).join(", ");
    super(
      `The checkpoint${options.turnId ? ` of turn "${options.turnId}"` : ""} waits in step ${which}, which the workflow no longer has; ` +
        "the workflow changed since it was saved: cancel the turn",
    );
    this.stepIds = options.stepIds;
  }
}

/** A model step (a `<Step>` with a prompt) with no `<Agent model={...}>` above it. */
export class MissingModelError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.MissingModelError");
  override readonly name = "MissingModelError";
  readonly stepId: string;
  constructor(stepId: string) {
    super(`june: step "${stepId}" has no model: put it inside an <Agent model={...}>, or give it run={...} instead of a prompt`);
    this.stepId = stepId;
  }
}

/**
 * A tool whose call was denied, executed anyway: the guard refuses. The model sees it as the tool's error,
 * so a denied tool never runs even when a provider replays the call.
 */
export class ToolDeniedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ToolDeniedError");
  override readonly name = "ToolDeniedError";
  readonly toolName: string;
  readonly stepId: string;
  constructor(options: { toolName: string; stepId: string }) {
    super(`Tool "${options.toolName}" was denied and must not execute`);
    this.toolName = options.toolName;
    this.stepId = options.stepId;
  }
}

/** A question a step's code asked (`ctx.ask`) that a person declined (`decide(id, { approved: false })`). */
export class QuestionDeclinedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.QuestionDeclinedError");
  override readonly name = "QuestionDeclinedError";
  readonly stepId: string;
  readonly requestId: string;
  readonly reason?: string;
  constructor(options: { stepId: string; requestId: string; reason?: string }) {
    super(`The question of step "${options.stepId}" was declined${options.reason !== undefined ? `: ${options.reason}` : ""}`);
    this.stepId = options.stepId;
    this.requestId = options.requestId;
    if (options.reason !== undefined) this.reason = options.reason;
  }
}

/**
 * An approval's edited input that the tool's input schema refuses: nothing was decided, the request is still
 * pending. `issues` says what is wrong, as the schema put it.
 */
export class ToolInputInvalidError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ToolInputInvalidError");
  override readonly name = "ToolInputInvalidError";
  readonly toolName: string;
  readonly approvalId: string;
  readonly issues: string;
  constructor(options: { toolName: string; approvalId: string; issues: string }) {
    super(`The edited input for tool "${options.toolName}" does not match its input schema: ${options.issues}. Request "${options.approvalId}" is still pending.`);
    this.toolName = options.toolName;
    this.approvalId = options.approvalId;
    this.issues = options.issues;
  }
}

/**
 * An approval's edited input that a tool guardrail or the step's `toolApproval` refuses, as they would refuse
 * the model's own call with it: nothing was decided, the request is still pending. `by` says which, `reason`
 * why (the policy's reason, or `Blocked by guardrail "name": ...`).
 */
export class ApprovalEditRefusedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.ApprovalEditRefusedError");
  override readonly name = "ApprovalEditRefusedError";
  readonly toolName: string;
  readonly approvalId: string;
  readonly by: "policy" | "guardrail";
  readonly reason: string;
  constructor(options: { toolName: string; approvalId: string; by: "policy" | "guardrail"; reason: string }) {
    super(`The edited input for tool "${options.toolName}" is refused by ${options.by === "policy" ? "its toolApproval policy" : "a tool guardrail"}: ${options.reason}. Request "${options.approvalId}" is still pending.`);
    this.toolName = options.toolName;
    this.approvalId = options.approvalId;
    this.by = options.by;
    this.reason = options.reason;
  }
}

/**
 * A step that failed before its run's checkpoint, failing again on resume with the saved error: only the
 * original's `name` (as `failedName`) and `message` were kept, so this stands in for it (a `<Catch>` runs its
 * fallback with it).
 */
export class RestoredFailureError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.RestoredFailureError");
  override readonly name = "RestoredFailureError";
  readonly stepId: string;
  /** The `name` of the error the step failed with, e.g. `"TimeoutError"`. */
  readonly failedName: string;
  constructor(options: { stepId: string; failure: { name: string; message: string } }) {
    super(options.failure.message);
    this.stepId = options.stepId;
    this.failedName = options.failure.name;
  }
}

/**
 * A streamed step (`<Step stream>`) whose model called one of the workflow's tools. A streamed step streams a
 * reply and calls no tool: text it streamed before a call would not be in its result (its last model call's
 * text), and a call before any text is a side effect inside a reply. The call fails the run before the tool's
 * `execute` runs and before anyone is asked to approve it, whether or not the step had streamed text. June's own
 * tools (`ask_user`, a team's `handoff`, memory's `update_memory`) are not refused.
 */
export class StreamedStepToolError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.StreamedStepToolError");
  override readonly name = "StreamedStepToolError";
  readonly stepId: string;
  readonly toolName: string;
  constructor(options: { stepId: string; toolName: string }) {
    super(
      `Step "${options.stepId}" is streamed (<Step stream>) and its model called the tool "${options.toolName}", so the tool did not run: ` +
        "a streamed step calls no tools of the workflow's; call them in an earlier step that is not streamed",
    );
    this.stepId = options.stepId;
    this.toolName = options.toolName;
  }
}
