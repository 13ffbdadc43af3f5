import { JuneError } from "../errors/june-error.js";
import type { RunResult } from "./types.js";

/** A workflow that cannot be rendered: names the element at fault. Nothing ran. */
export class RenderError extends JuneError {
  override readonly name = "RenderError";
  readonly element: string;
  constructor(message: string, options: { element: string; cause?: unknown }) {
    super(message, options);
    this.element = options.element;
  }
}

/** A run that failed, was canceled or timed out. `result` holds what it had done. */
export class RunError extends JuneError {
  override readonly name = "RunError";
  readonly result: RunResult;
  constructor(message: string, options: { result: RunResult; cause?: unknown }) {
    super(message, options);
    this.result = options.result;
  }
}

/** A run or a step that ran past its `timeout`. */
export class TimeoutError extends JuneError {
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
  override readonly name = "CanceledError";
  constructor(message = "The run was canceled", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A step result that cannot be kept in a checkpoint (not JSON-safe); names the step and where in the value. */
export class StepResultNotSerializableError extends JuneError {
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
