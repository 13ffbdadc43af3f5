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
