import type { ApprovalRequest } from "../../runtime/types.js";
import type { ResponderTraceNode as TraceNode } from "../trace/responder-trace.js";

/**
 * True when every step of the turn's trace that is still running waits on an approval (a pending tool call)
 * and no model call is in flight: nothing would happen before someone decides. A model or tool call outside
 * any step (a custom responder's) counts on its own: a tool call waiting on its approval waits, a running
 * call is busy.
 */
export function waitsOnApprovalsOnly(tree: TraceNode): boolean {
  let waiting = 0;
  let busy = false;
  const visit = (node: TraceNode): void => {
    if (busy) return;
    if (node.kind === "step") {
      if (node.status !== "running" && node.status !== "pending") return;
      const pending = node.children.some((c) => c.kind === "tool-call" && c.status === "pending" && c.approval?.state === "pending");
      const calling = node.children.some((c) => (c.kind === "model-call" || c.kind === "tool-call") && c.status === "running");
      if (pending && !calling) waiting++;
      else busy = true;
      return;
    }
    if (node.kind === "tool-call" && node.status === "pending" && node.approval?.state === "pending") {
      waiting++;
      return;
    }
    if ((node.kind === "model-call" || node.kind === "tool-call") && node.status === "running") {
      busy = true;
      return;
    }
    for (const child of node.children) visit(child);
  };
  visit(tree);
  return !busy && waiting > 0;
}

export interface SuspendWatchOptions {
  suspendAfterMs: number;
  /** The turn's pending requests now. */
  requests: () => readonly ApprovalRequest[];
  /** True once a checkpoint listing this request was stored. */
  saved: (requestId: string) => boolean;
  /** Called once, when the turn has waited on approvals alone for `suspendAfterMs`. */
  onSuspend: () => void;
}

/**
 * Arms a timer while a durable turn waits on approvals alone, with every pending request in a stored
 * checkpoint; anything else (a decision, a model call, a step that runs) disarms it. `check()` after each
 * event, decision and checkpoint write.
 */
export class SuspendWatch {
  readonly #options: SuspendWatchOptions;
  #tree: TraceNode | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #held = 0;
  #done = false;

  constructor(options: SuspendWatchOptions) {
    this.#options = options;
  }

  /** The run's latest snapshot (a run-update event). */
  set tree(tree: TraceNode) {
    this.#tree = tree;
  }

  /** Keeps the turn from suspending until the returned release is called (a person is answering). */
  hold(): () => void {
    this.#held++;
    this.check();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      this.check();
    };
  }

  check(): void {
    if (this.#done) return;
    if (this.#idle()) {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        if (this.#done || !this.#idle()) return;
        this.#done = true;
        this.#options.onSuspend();
      }, this.#options.suspendAfterMs);
    } else if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  stop(): void {
    this.#done = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #idle(): boolean {
    if (this.#held > 0) return false;
    const requests = this.#options.requests();
    if (requests.length === 0 || !requests.every((r) => this.#options.saved(r.id))) return false;
    return this.#tree === undefined || waitsOnApprovalsOnly(this.#tree);
  }
}
