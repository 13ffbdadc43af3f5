import type { ApprovalRequest, PolicyApproval } from "./types.js";

/** How an approval wait ended. `withdrawn`: the step or run stopped before anyone decided. */
export type ApprovalOutcome =
  | { readonly kind: "approved" }
  | { readonly kind: "denied"; readonly reason?: string }
  | { readonly kind: "withdrawn" };

interface Pending {
  request: ApprovalRequest;
  settle: (outcome: ApprovalOutcome) => void;
}

export interface OpenApprovalOptions {
  /** Aborting it withdraws the request. */
  signal: AbortSignal;
  /** Called synchronously when the request is decided or withdrawn, before its wait resolves. */
  onSettle: (outcome: ApprovalOutcome) => void;
}

/**
 * The run's pending approval requests. Every wait resolves (it never rejects): with the decision, or with
 * `withdrawn` when its signal aborts or its step ends, so a cancel can leave no unhandled rejection. A
 * decision is taken once; a second one, or one for an unknown id, returns `false`.
 */
export class ApprovalRegistry {
  private readonly pending = new Map<string, Pending>();
  private readonly deniedCalls = new Set<string>();
  private readonly answers = new Map<string, unknown>();
  private list: readonly ApprovalRequest[] = Object.freeze([]);
  private byPolicy: readonly PolicyApproval[] = Object.freeze([]);

  /** The tool calls decided by policy (`toolApproval`), oldest first (a frozen array, replaced on change). */
  get policyDecisions(): readonly PolicyApproval[] {
    return this.byPolicy;
  }

  /** Records a decision taken by policy: never pending, never in `requests`. */
  recordPolicyDecision(decision: PolicyApproval): void {
    this.byPolicy = Object.freeze([...this.byPolicy, Object.freeze({ ...decision })]);
  }

  /** The pending requests, oldest first (a frozen array, replaced on change). */
  get requests(): readonly ApprovalRequest[] {
    return this.list;
  }

  /** Adds `request` to `requests` and returns its wait. */
  open(request: ApprovalRequest, options: OpenApprovalOptions): Promise<ApprovalOutcome> {
    // Internal invariant: request ids are the AI SDK's tool call ids, unique in a run; a repeat is a bug in June.
    if (this.pending.has(request.id)) throw new Error(`june: duplicate approval request id ${request.id}`);
    const frozen = Object.freeze({ ...request });
    return new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = () => this.settle(frozen.id, { kind: "withdrawn" });
      const entry: Pending = {
        request: frozen,
        settle: (outcome) => {
          options.signal.removeEventListener("abort", onAbort);
          if (outcome.kind === "denied") this.deniedCalls.add(callKey(frozen.stepId, frozen.toolCallId));
          options.onSettle(outcome);
          resolve(outcome);
        },
      };
      this.pending.set(frozen.id, entry);
      this.refresh();
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Approves a pending request; `false` for an unknown, withdrawn or decided id, or a question (it takes `answer`). */
  approve(id: string): boolean {
    if (this.pending.get(id)?.request.question !== undefined) return false;
    return this.settle(id, { kind: "approved" });
  }

  /** Answers a pending question (an `ask_user` call): its tool returns `value`. `false` for anything else. */
  answer(id: string, value: unknown): boolean {
    const entry = typeof id === "string" ? this.pending.get(id) : undefined;
    if (!entry || entry.request.question === undefined) return false;
    this.answers.set(callKey(entry.request.stepId, entry.request.toolCallId), value);
    return this.settle(id, { kind: "approved" });
  }

  /** The answer to a step's `ask_user` call, once (`undefined` when none was given in this process). */
  takeAnswer(stepId: string, toolCallId: string): { value: unknown } | undefined {
    const key = callKey(stepId, toolCallId);
    if (!this.answers.has(key)) return undefined;
    const value = this.answers.get(key);
    this.answers.delete(key);
    return { value };
  }

  /** Denies a pending request; `false` for an unknown, withdrawn or decided id. */
  deny(id: string, reason?: string): boolean {
    return this.settle(id, reason === undefined ? { kind: "denied" } : { kind: "denied", reason });
  }

  /** Withdraws every pending request of a step (it failed or ended). */
  withdrawStep(stepId: string): void {
    for (const [id, entry] of [...this.pending]) {
      if (entry.request.stepId === stepId) this.settle(id, { kind: "withdrawn" });
    }
  }

  /** Withdraws every pending request (the run ended). */
  withdrawAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { kind: "withdrawn" });
  }

  /** Records a denial decided before this run (restored from a checkpoint): the call must never execute. */
  markDenied(stepId: string, toolCallId: string): void {
    this.deniedCalls.add(callKey(stepId, toolCallId));
  }

  /** True when this step's tool call was denied: it must never execute. */
  isDenied(stepId: string, toolCallId: string): boolean {
    return this.deniedCalls.has(callKey(stepId, toolCallId));
  }

  private settle(id: string, outcome: ApprovalOutcome): boolean {
    if (typeof id !== "string") return false;
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    this.refresh();
    entry.settle(outcome);
    return true;
  }

  private refresh(): void {
    this.list = Object.freeze([...this.pending.values()].map((entry) => entry.request));
  }
}

function callKey(stepId: string, toolCallId: string): string {
  return `${stepId}\u0000${toolCallId}`;
}
