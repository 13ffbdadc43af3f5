import { ApprovalEditRefusedError, ToolInputInvalidError } from "./errors.js";
import { jsonValueIssue, type EditVerdict } from "./edited-input.js";
import type { ApprovalDecision, ApprovalRequest, DecisionOutcome, PolicyApproval } from "./types.js";

/**
 * How an approval wait ended. `withdrawn`: the step or run stopped before anyone decided. An approval with
 * `input` was edited: the tool runs with it, and the model sees the call with it.
 */
export type ApprovalOutcome =
  | { readonly kind: "approved"; readonly input?: unknown }
  | { readonly kind: "denied"; readonly reason?: string }
  | { readonly kind: "withdrawn" };

interface Pending {
  request: ApprovalRequest;
  checkEdit?: (input: unknown) => Promise<EditVerdict>;
  /** True while an edited input is being checked: another approval of it is `not-pending` until then. */
  checking?: boolean;
  settle: (outcome: ApprovalOutcome) => void;
}

export interface OpenApprovalOptions {
  /** Aborting it withdraws the request. */
  signal: AbortSignal;
  /** Called synchronously when the request is decided or withdrawn, before its wait resolves. */
  onSettle: (outcome: ApprovalOutcome) => void;
  /**
   * Checks an edited input as the model's own is checked (schema, tool guardrails, `toolApproval`): the input
   * the tool runs with, or why not. Without it, an edit is taken as it is (bounded, plain JSON).
   */
  checkEdit?: (input: unknown) => Promise<EditVerdict>;
}

/**
 * The run's pending approval requests. Every wait resolves (it never rejects): with the decision, or with
 * `withdrawn` when its signal aborts or its step ends, so a cancel can leave no unhandled rejection. A
 * decision is taken once; a second one, or one for an unknown id, is `not-pending`.
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
        ...(options.checkEdit ? { checkEdit: options.checkEdit } : {}),
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

  /**
   * Decides a pending request: `not-pending` for an unknown, withdrawn or decided id, or for approving a question
   * (it takes `answer`). An approval with `input` (an edit) is checked before it is taken, so it resolves
   * later: bounded plain JSON first (`ToolInputInvalidError`, thrown at once), then `checkEdit` (the tool's
   * schema: `ToolInputInvalidError`; a tool guardrail or `toolApproval` that refuses it:
   * `ApprovalEditRefusedError`). A refused edit leaves the request pending; while one is checked, another
   * approval of it is `not-pending` (a denial still decides it).
   */
  decide(id: string, decision: ApprovalDecision): DecisionOutcome | Promise<DecisionOutcome> {
    if (typeof id !== "string") return NOT_PENDING;
    const entry = this.pending.get(id);
    if (!entry) return NOT_PENDING;
    if (!decision.approved) return this.settle(id, decision.reason === undefined ? { kind: "denied" } : { kind: "denied", reason: decision.reason });
    if (entry.request.question !== undefined || entry.checking) return NOT_PENDING;
    if (!("input" in decision) || decision.input === undefined) return this.settle(id, { kind: "approved" });
    const toolName = entry.request.toolName;
    const shape = jsonValueIssue(decision.input, "input");
    if (shape !== undefined) return Promise.reject(new ToolInputInvalidError({ toolName, approvalId: id, issues: shape }));
    const input = structuredClone(decision.input);
    if (!entry.checkEdit) return Promise.resolve(this.settle(id, { kind: "approved", input }));
    entry.checking = true;
    return entry.checkEdit(input).then(
      (verdict) => {
        entry.checking = false;
        // Withdrawn or denied while it was checked: nothing to take it.
        if (this.pending.get(id) !== entry) return NOT_PENDING;
        switch (verdict.kind) {
          case "ok":
            return this.settle(id, { kind: "approved", input: verdict.input });
          case "invalid":
            throw new ToolInputInvalidError({ toolName, approvalId: id, issues: verdict.issues });
          case "refused":
            throw new ApprovalEditRefusedError({ toolName, approvalId: id, by: verdict.by, reason: verdict.reason });
          default: {
            const unreachable: never = verdict;
            throw new Error(`june: unknown edit verdict ${String(unreachable)}`);
          }
        }
      },
      (error: unknown) => {
        // A check that throws refuses the edit (a broken check must not pass); the request stays pending.
        entry.checking = false;
        throw error;
      },
    );
  }

  /** Answers a pending question (an `ask_user` call): its tool returns `value`. `not-pending` for anything else. */
  answer(id: string, value: unknown): DecisionOutcome {
    const entry = typeof id === "string" ? this.pending.get(id) : undefined;
    if (!entry || entry.request.question === undefined) return NOT_PENDING;
    const shape = jsonValueIssue(value, "answer");
    if (shape !== undefined) throw new RangeError(`The answer to request "${id}" is refused: ${shape}. The question is still pending.`);
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

  private settle(id: string, outcome: ApprovalOutcome): DecisionOutcome {
    const entry = this.pending.get(id);
    if (!entry) return NOT_PENDING;
    this.pending.delete(id);
    this.refresh();
    entry.settle(outcome);
    return DECIDED;
  }

  private refresh(): void {
    this.list = Object.freeze([...this.pending.values()].map((entry) => entry.request));
  }
}

const DECIDED: DecisionOutcome = Object.freeze({ kind: "decided" });
const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });

function callKey(stepId: string, toolCallId: string): string {
  return `${stepId}\u0000${toolCallId}`;
}
