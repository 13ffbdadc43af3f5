import type { CallPatch, NewCallNode } from "../../../runtime/model-engine/call-node.js";
import type { ModelCallNode, NodeStatus, RunNode, TraceError } from "../../../runtime/types.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const NO_CHILDREN: ModelCallNode["children"] = Object.freeze([]);
type CallFields = Mutable<Omit<ModelCallNode, "children">>;

/**
 * The trace of a model chat's turn: a `run` node with one `model-call` node per call (one more per steer),
 * as agent turns have. The model engine decides each node's fields (`callNode`); this keeps them, and hands
 * each change that a person would want to see (a call starts, a request fails and is retried, the call ends)
 * to `onSnapshot` as one snapshot. Text deltas are not (the reply shows them), so a turn costs a few snapshots
 * however long its reply.
 */
export class ModelTurnTrace {
  readonly #run: Mutable<Omit<RunNode, "children">>;
  readonly #calls: CallFields[] = [];
  readonly #onSnapshot: (tree: RunNode) => void;

  constructor(onSnapshot: (tree: RunNode) => void) {
    this.#onSnapshot = onSnapshot;
    this.#run = { kind: "run", id: "run", name: "model", status: "running", startedAt: Date.now() };
  }

  /** A call's node, as its first request starts; returns its id. */
  open(node: NewCallNode): string {
    const id = `model-call-${this.#calls.length + 1}`;
    this.#calls.push(Object.assign({ id }, node) as CallFields);
    // A steer that came in once the last call had finished: the run goes on.
    this.#run.status = "running";
    delete this.#run.endedAt;
    this.#commit();
    return id;
  }

  update(id: string, patch: CallPatch): void {
    const call = this.#call(id);
    if (!call || isEnded(call.status)) return;
    Object.assign(call, patch);
    this.#commit();
  }

  /** A call ended (`patch` ends its node); `turn` ends the run too, in the same snapshot, when this was the turn's last call. */
  end(id: string | undefined, patch: CallPatch, turn: NodeStatus | undefined): void {
    if (turn !== undefined) this.#endRun(turn, patch.error);
    const call = id === undefined ? undefined : this.#call(id);
    if (call && !isEnded(call.status)) Object.assign(call, patch);
    this.#commit();
  }

  #call(id: string): CallFields | undefined {
    const last = this.#calls.at(-1);
    return last?.id === id ? last : this.#calls.find((call) => call.id === id);
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
