import type { ModelMessage } from "ai";
import { excerptText, promptExcerpt } from "../../../runtime/message-excerpt.js";
import { endFields, toTraceError } from "../../../runtime/run-state.js";
import type { ModelAttemptFailure, ModelCallNode, ModelInfo, NodeStatus, RunNode, TraceError, Usage } from "../../../runtime/types.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NO_CHILDREN: ModelCallNode["children"] = Object.freeze([]);
type CallFields = Mutable<Omit<ModelCallNode, "children">>;

/** How a call ended. */
export type CallEnd =
  | { kind: "done"; text: string; usage?: Usage; finishReason?: string }
  | { kind: "stopped"; text: string; canceled: boolean }
  | { kind: "failed"; error: unknown };

/**
 * The trace of a model chat's turn: a `run` node with one `model-call` node per call (one more per steer),
 * as agent turns have. Each change that a person would want to see (a call starts, a request fails and is
 * retried, the call ends) is one snapshot, handed to `onSnapshot`; text deltas are not (the reply shows them),
 * so a turn costs a few snapshots however long its reply.
 */
export class ModelTurnTrace {
  readonly #run: Mutable<Omit<RunNode, "children">>;
  readonly #calls: CallFields[] = [];
  readonly #info: ModelInfo;
  readonly #onSnapshot: (tree: RunNode) => void;
  #attemptStartedAt: number | undefined;

  constructor(info: ModelInfo, onSnapshot: (tree: RunNode) => void) {
    this.#info = info;
    this.#onSnapshot = onSnapshot;
    this.#run = { kind: "run", id: "run", name: "model", status: "running", startedAt: Date.now() };
  }

  /** A new call, sent `messages` after `system`. */
  startCall(system: string | undefined, messages: readonly ModelMessage[]): void {
    const { prompt, omitted } = promptExcerpt(system, messages);
    const call: CallFields = {
      kind: "model-call",
      id: `model-call-${this.#calls.length + 1}`,
      name: this.#info.modelId,
      status: "running",
      startedAt: Date.now(),
      model: this.#info,
      partialText: "",
      prompt,
    };
    if (omitted > 0) call.promptOmitted = omitted;
    this.#calls.push(call);
    this.#attemptStartedAt = undefined;
    // A steer that came in once the last call had finished: the run goes on.
    this.#run.status = "running";
    delete this.#run.endedAt;
    this.#commit();
  }

  /** A request of the current call starts: the first needs no snapshot, a retry does. */
  attempt(attempt: number, at: number): void {
    const call = this.#calls.at(-1);
    this.#attemptStartedAt = at;
    if (!call || attempt <= 1) return;
    call.attempt = attempt;
    this.#commit();
  }

  /** A request of the current call failed; the AI SDK may retry it. */
  attemptFailed(attempt: number, error: unknown, at: number): void {
    const call = this.#calls.at(-1);
    if (!call || isEnded(call.status)) return;
    const failure: ModelAttemptFailure = { attempt, startedAt: this.#attemptStartedAt ?? call.startedAt ?? at, endedAt: at, error: toTraceError(error) };
    call.failedAttempts = [...(call.failedAttempts ?? []), failure];
    this.#commit();
  }

  /**
   * The current call ended: finished (`text` is what it wrote), stopped by a steer or a cancel, or failed.
   * `turn` ends the run too, in the same snapshot, when this was the turn's last call.
   */
  endCall(end: CallEnd, turn?: NodeStatus): void {
    const call = this.#calls.at(-1);
    if (turn !== undefined) this.#endRun(turn, end.kind === "failed" ? toTraceError(end.error) : undefined);
    if (!call || isEnded(call.status)) {
      if (turn !== undefined) this.#commit();
      return;
    }
    call.endedAt = Date.now();
    switch (end.kind) {
      case "done":
        call.status = "done";
        if (end.usage) call.usage = end.usage;
        if (end.finishReason !== undefined) call.finishReason = end.finishReason;
        if (end.text) call.response = [{ role: "assistant", text: excerptText(end.text) }];
        break;
      case "stopped":
        call.status = end.canceled ? "canceled" : "done";
        if (!end.canceled) call.finishReason = "interrupted";
        if (end.text) call.response = [{ role: "assistant", text: excerptText(end.text) }];
        break;
      case "failed": {
        const fields = endFields(end.error, call.endedAt);
        call.status = fields.status;
        if (fields.error) call.error = fields.error;
        break;
      }
      default: {
        const unreachable: never = end;
        throw new TypeError(`june: unknown model call end ${String(unreachable)}`);
      }
    }
    this.#commit();
  }

  #endRun(status: NodeStatus, error: TraceError | undefined): void {
    if (isEnded(this.#run.status)) return;
    this.#run.status = status;
    this.#run.endedAt = Date.now();
    if (error && status === "error") this.#run.error = error;
  }

  #commit(): void {
    // Object.assign, not `{ ...call, children }`: a literal mixing a spread with keys is V8's slow path.
    const children = this.#calls.map((call): ModelCallNode => Object.freeze(Object.assign({}, call, { children: NO_CHILDREN })) as ModelCallNode);
    this.#onSnapshot(Object.freeze(Object.assign({}, this.#run, { children: Object.freeze(children) })) as RunNode);
  }
}

function isEnded(status: NodeStatus): boolean {
  return status === "done" || status === "error" || status === "canceled";
}
