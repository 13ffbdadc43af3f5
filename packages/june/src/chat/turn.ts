import { ASK_USER_TOOL } from "../ask/ask-user.js";
import type { ApprovalDecision, ApprovalRequest, DecisionOutcome } from "../runtime/types.js";
import { CanceledError } from "../runtime/errors.js";
import type { FileRef } from "../stores/types.js";
import { ApprovalNotPendingError, SteerNotSupportedError, TurnEndedError, TurnSuspendedError } from "./errors.js";
import { validateInput } from "./input.js";
import { ReplayBuffer } from "./internal/replay-buffer.js";
import { deferred, quiet, type Deferred } from "./internal/deferred.js";
import type { SessionJournal } from "./session-journal.js";
import type { TurnSpans } from "./turn-spans.js";
import type { SuspendWatch } from "./durable/suspend-watch.js";
import { ChatTurn } from "./chat-turn.js";
import { ReplyAsides, type JournaledAsides } from "./internal/reply-asides.js";
import type { TurnOutcome, TurnPhase } from "./turn-outcome.js";
import type { ResponderExecution, Turn, TurnCommand, TurnEvent, TurnResult, TurnStatus } from "./types.js";

const NO_REQUESTS: readonly ApprovalRequest[] = Object.freeze([]);
/** The reason of an approval "remember for this session" took (a decision by policy: no one was asked again). */
const REMEMBERED = "approved for the session";
/** The reason journaled for an answered question (`ask_user`): that it was answered, never the answer. */
const ANSWERED = "question answered";
const noRelease = (): void => {};

const ANSWERING: TurnPhase = { kind: "answering" };
const CANCELING: TurnPhase = { kind: "canceling" };

/**
 * The state of one turn and its controls. The session's runner drives it through its methods (attach the
 * execution, push events, close the controls, finish); the public `Turn` (`controller.turn`) reads it.
 */
export class TurnController {
  readonly id: string;
  readonly sessionId: string;
  readonly turn: Turn;
  /** The files the turn sent, as references. */
  readonly files: readonly FileRef[];
  /** Aborts when the turn is canceled: the responder's `signal`. */
  readonly abort = new AbortController();
  readonly events = new ReplayBuffer<TurnEvent>();
  #phase: TurnPhase = ANSWERING;
  /** The reply streamed so far (the `text-delta`s joined): a steer's `atChar` is its length, a canceled turn keeps it. */
  #streamed = "";
  /** The reasoning and sources the model sent beside the reply so far. */
  readonly asides = new ReplyAsides();
  readonly #journalReasoning: boolean;
  #execution: ResponderExecution | undefined;
  /** Ids of the requests a stored checkpoint lists (a durable turn suspends only with all of them saved). */
  readonly #savedRequests = new Set<string>();
  /** A durable turn's suspend watch, while it may suspend: told of each event, decision and checkpoint. */
  #suspendWatch: SuspendWatch | undefined;
  /** The turn's OpenTelemetry spans, when the chat records them. */
  #spans: TurnSpans | undefined;

  readonly #journal: SessionJournal;
  readonly #maxInputChars: number;
  readonly #result: Deferred<TurnResult> = deferred();
  readonly #canceled: Deferred<void> = deferred();
  readonly #executionReady: Deferred<ResponderExecution> = deferred();
  readonly #decided = new Set<string>();
  /** How many of the execution's policy decisions are journaled. */
  #policyJournaled = 0;
  /** Steer and approval journal writes not yet done; the turn-end waits for them. */
  readonly #writes = new Set<Promise<unknown>>();
  #writeError: unknown;
  /** Checkpoint writes in flight; none start once closed (the turn ends or suspends). */
  readonly #checkpointWrites = new Set<Promise<unknown>>();
  #checkpointsClosed = false;

  constructor(options: { id: string; sessionId: string; journal: SessionJournal; maxInputChars: number; files?: readonly FileRef[]; journalReasoning?: boolean }) {
    this.id = options.id;
    this.#journalReasoning = options.journalReasoning === true;
    this.sessionId = options.sessionId;
    this.files = Object.freeze([...(options.files ?? [])]);
    this.#journal = options.journal;
    this.#maxInputChars = options.maxInputChars;
    quiet(this.#result.promise);
    quiet(this.#executionReady.promise);
    this.turn = new ChatTurn(this, this.#result.promise);
  }

  /** Resolves when `cancel()` is called. */
  get canceled(): Promise<void> {
    return this.#canceled.promise;
  }

  get phase(): TurnPhase {
    return this.#phase;
  }

  /** `running` until the turn ended, then how it ended. */
  get status(): TurnStatus {
    return this.#phase.kind === "ended" ? this.#phase.status : "running";
  }

  /** True once `cancel()` was called while the turn answered, until it ended. */
  get cancelRequested(): boolean {
    const phase = this.#phase;
    return phase.kind === "canceling" || (phase.kind === "ending" && phase.canceled);
  }

  /** True while approvals, denials and steers can reach the turn (answering or canceling). */
  get open(): boolean {
    return this.#phase.kind === "answering" || this.#phase.kind === "canceling";
  }

  get execution(): ResponderExecution | undefined {
    return this.#execution;
  }

  get requests(): readonly ApprovalRequest[] {
    return this.#execution?.requests ?? NO_REQUESTS;
  }

  /** What the turn's end journals beside the reply: its sources, and its reasoning when the chat asks (`journal: { reasoning: true }`). */
  journaledAsides(): JournaledAsides {
    return this.asides.journaled(this.#journalReasoning);
  }

  /** The reply streamed so far: the `text-delta`s joined (what a turn canceled now keeps). */
  get streamedText(): string {
    return this.#streamed;
  }

  get spans(): TurnSpans | undefined {
    return this.#spans;
  }

  attach(execution: ResponderExecution): void {
    this.#execution = execution;
    this.#executionReady.resolve(execution);
  }

  /** Records the turn's spans (a new turn's, or a resumed one's). */
  traceWith(spans: TurnSpans | undefined): void {
    this.#spans = spans;
  }

  /** Ends the turn's spans, if any, and lets them go. */
  endSpans(end: Parameters<TurnSpans["end"]>[0]): void {
    const spans = this.#spans;
    this.#spans = undefined;
    spans?.end(end);
  }

  /** Closes the controls: the outcome is decided (or the turn is suspending). The suspend watch stops. */
  closeControls(): void {
    if (this.open) this.#phase = { kind: "ending", canceled: this.#phase.kind === "canceling" };
    this.#suspendWatch?.stop();
    this.#suspendWatch = undefined;
  }

  /**
   * Lets a durable turn suspend: `watch` hears of each event, decision and checkpoint from now on, and
   * `Turn.holdSuspend()` holds it. Stopped when the controls close.
   */
  watchSuspend(watch: SuspendWatch): void {
    if (!this.open) return;
    this.#suspendWatch = watch;
  }

  /** True once a stored checkpoint lists the request. */
  isSaved(requestId: string): boolean {
    return this.#savedRequests.has(requestId);
  }

  /** A checkpoint listing these requests was stored. */
  checkpointSaved(requestIds: Iterable<string>): void {
    for (const id of requestIds) this.#savedRequests.add(id);
    this.#suspendWatch?.check();
  }

  /** Keeps a durable turn from suspending until the release is called; a no-op release otherwise. */
  holdSuspend(): () => void {
    return this.#suspendWatch?.hold() ?? noRelease;
  }

  /**
   * Runs a checkpoint write unless the turn is ending (then it is dropped: the turn's end deletes its
   * checkpoint, and nothing may write one after). Tracked, so `closeCheckpoints` can wait for it.
   */
  writeCheckpoint(write: () => Promise<void>): Promise<void> {
    if (this.#checkpointsClosed) return Promise.resolve();
    const running = write();
    const tracked = running.then(
      () => {},
      () => {},
    );
    this.#checkpointWrites.add(tracked);
    void tracked.then(() => this.#checkpointWrites.delete(tracked));
    return running;
  }

  /** Stops new checkpoint writes and waits for those in flight. */
  async closeCheckpoints(): Promise<void> {
    this.#checkpointsClosed = true;
    while (this.#checkpointWrites.size > 0) await Promise.allSettled([...this.#checkpointWrites]);
  }

  /** Buffers one of the responder's events; anything but the three responder events is dropped. */
  push(event: unknown): void {
    this.#push(event);
    this.#suspendWatch?.check();
  }

  #push(event: unknown): void {
    if (typeof event !== "object" || event === null) return;
    const e = event as TurnEvent;
    switch (e.type) {
      case "text-delta":
        if (typeof e.text !== "string") return;
        this.#streamed += e.text;
        this.events.push(e);
        return;
      case "reasoning-start":
      case "reasoning-delta":
      case "reasoning-end":
      case "source":
        if (this.asides.take(e)) this.events.push(e);
        return;
      case "run-update":
        this.events.push(e);
        if (this.#suspendWatch) this.#suspendWatch.tree = e.tree;
        this.#journalPolicyDecisions();
        return;
      case "policy-decision":
        // The turn says these itself (from the execution's `policyDecisions`); a responder's own are dropped.
        return;
      case "input-request":
        // The turn says these itself (from a request with a question); a responder's own are dropped.
        return;
      case "approval-request":
        if (typeof e.request?.question === "string") {
          const { id, question, stepId, toolCallId } = e.request;
          this.events.push({ type: "input-request", request: { id, question, stepId, toolCallId } });
          return;
        }
        // A tool the user approved for the whole session is approved again without asking.
        if (this.#journal.rememberedTools.has(e.request?.toolName) && (this.decide(e.request.id, { approved: true }, {}, e.request.toolName) as DecisionOutcome).kind === "decided") {
          const { id, stepId, toolName, toolCallId } = e.request;
          this.events.push({ type: "policy-decision", decision: { id, stepId, toolName, toolCallId, approved: true, reason: REMEMBERED } });
          return;
        }
        this.events.push(e);
        return;
      default: {
        const unknown: never = e;
        void unknown;
      }
    }
  }

  /**
   * Answers a question once and says what happened: `ended` once the controls are closed, `not-pending` for an
   * id the execution does not wait on as a question. Journaled as answered, never with the answer.
   */
  answer(id: string, value: unknown): DecisionOutcome {
    const execution = this.#execution;
    if (!this.open) return ENDED;
    if (value === undefined) throw new TypeError(`turn.answer("${id}", value): value must be a string or a JSON value, got undefined`);
    if (!execution || this.#decided.has(id) || typeof execution.answer !== "function") return NOT_PENDING;
    const outcome = execution.answer(id, value);
    if (outcome.kind !== "decided") return outcome;
    this.#decided.add(id);
    this.#spans?.answered(id);
    queueMicrotask(() => this.#suspendWatch?.check());
    this.#track(this.#journalWrite([{ type: "approval", turnId: this.id, requestId: id, toolName: ASK_USER_TOOL, approved: true, reason: ANSWERED }]));
    return outcome;
  }

  /** Applies a control, throwing a typed error when the turn cannot take it (see `Turn.control`). */
  async control(command: TurnCommand): Promise<void> {
    switch (command.type) {
      case "approve":
      case "deny": {
        const decision: ApprovalDecision =
          command.type === "approve"
            ? { approved: true, ...(command.input !== undefined ? { input: command.input } : {}) }
            : { approved: false, ...(command.reason !== undefined ? { reason: command.reason } : {}) };
        const deciding = this.decide(command.approvalId, decision, command.type === "approve" && command.remember ? { remember: command.remember } : {});
        // Awaited only when checked (an edit): a decision taken at once answers before the turn moves on.
        const outcome = isPromise(deciding) ? await deciding : deciding;
        return this.#settled(outcome, command.type, command.approvalId);
      }
      case "answer":
        // Checked first (the chat's guardrails): a refused answer throws and the question stays pending.
        if (this.open && !this.#decided.has(command.requestId)) await this.#execution?.checkAnswer?.(command.requestId, command.value);
        return this.#settled(this.answer(command.requestId, command.value), "answer", command.requestId);
      case "cancel":
        // A cancel already asked for, or a turn deciding its end, still answers: the turn ends either way.
        if (this.status !== "running") throw new TurnEndedError(this.id, undefined, { control: "cancel" });
        return this.cancel();
      case "steer":
        return this.steer(command.input);
      default: {
        const unknown: never = command;
        throw new TypeError(`Unknown turn command ${JSON.stringify(unknown)}`);
      }
    }
  }

  cancel(): void {
    if (this.#phase.kind !== "answering") return;
    this.#phase = CANCELING;
    this.#spans?.cancel();
    this.#canceled.resolve();
    this.abort.abort(new CanceledError(`Turn "${this.id}" was canceled`));
  }

  async steer(input: string): Promise<void> {
    validateInput(input, this.#maxInputChars, "steer input");
    if (!this.open) throw new TurnEndedError(this.id);
    const atChar = this.#streamed.length;
    this.#spans?.steer(input);
    const execution = await this.#executionReady.promise;
    if (!execution.steer) throw new SteerNotSupportedError(this.id);
    if (!this.open) throw new TurnEndedError(this.id);
    const write = (async () => {
      // The responder refusing the input is the steer's failure, not the turn's; a lost journal entry is both.
      await execution.steer!(input);
      try {
        await this.#journal.append([{ type: "steer", turnId: this.id, input, atChar }]);
      } catch (error) {
        this.#writeError ??= error;
        throw error;
      }
    })();
    this.#track(write);
    await write;
  }

  /** Waits for the steer and approval entries in flight; a failed one is returned. */
  async settleWrites(): Promise<unknown> {
    // A steer still waiting for the execution fails; once attached, the rejection is a no-op (and an error's
    // stack trace is not worth building on every turn).
    if (this.#execution === undefined) this.#executionReady.reject(new TurnEndedError(this.id));
    while (this.#writes.size > 0) await Promise.allSettled([...this.#writes]);
    return this.#writeError;
  }

  /** Ends the turn: status, events, result. Call after the journal and the lease are done. */
  finish(outcome: TurnOutcome): void {
    this.closeControls();
    this.#phase = { kind: "ended", status: outcome.status };
    this.events.end();
    switch (outcome.status) {
      case "completed": {
        const result: TurnResult = { text: outcome.result.text, metadata: outcome.metadata };
        if (this.asides.reasoning !== "") result.reasoning = this.asides.reasoning;
        if (this.asides.sources.length > 0) result.sources = [...this.asides.sources];
        if (outcome.result.run !== undefined) result.run = outcome.result.run;
        this.#result.resolve(result);
        return;
      }
      case "failed":
      case "blocked":
        this.#result.reject(outcome.error);
        return;
      case "canceled":
        this.#result.reject(new CanceledError(`Turn "${this.id}" was canceled`));
        return;
      case "suspended":
        this.#result.reject(new TurnSuspendedError({ sessionId: this.sessionId, turnId: this.id, requests: outcome.requests }));
        return;
      default: {
        const unknown: never = outcome;
        void unknown;
      }
    }
  }

  /** A control's outcome as the control answers it: nothing when decided, else the typed error. */
  #settled(outcome: DecisionOutcome, control: "approve" | "deny" | "answer", approvalId: string): void {
    switch (outcome.kind) {
      case "decided":
        return;
      case "ended":
        throw new TurnEndedError(this.id, undefined, { control, approvalId });
      case "not-pending":
        throw new ApprovalNotPendingError({ turnId: this.id, approvalId });
      default: {
        const unknown: never = outcome;
        throw new TypeError(`Unknown decision outcome ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * The one place a request is decided, once per id, saying what happened: `ended` once the controls are
   * closed, `not-pending` for an id the execution does not wait on. An edited input resolves once the
   * execution checked it (a durable turn does not suspend meanwhile); one it refuses rejects
   * (`ToolInputInvalidError`, `ApprovalEditRefusedError`: nothing decided). `rememberedTool` marks an
   * automatic approval of a tool approved for the session.
   */
  decide(id: string, decision: ApprovalDecision, options: { remember?: "session" }, rememberedTool?: string): DecisionOutcome | Promise<DecisionOutcome> {
    const execution = this.#execution;
    if (!this.open) return ENDED;
    if (!execution || this.#decided.has(id) || typeof execution.decide !== "function") return NOT_PENDING;
    const toolName = rememberedTool ?? this.#toolName(id);
    const outcome = execution.decide(id, decision);
    if (!isPromise(outcome)) return this.#decidedNow(id, outcome, decision, options, toolName, rememberedTool);
    // Held while the edit is checked: a turn that suspended now would withdraw the request under it.
    const release = this.holdSuspend();
    return outcome.then(
      (checked) => {
        release();
        return this.#decidedNow(id, checked, decision, options, toolName, rememberedTool);
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
  }

  #decidedNow(id: string, outcome: DecisionOutcome, decision: ApprovalDecision, options: { remember?: "session" }, toolName: string | undefined, rememberedTool: string | undefined): DecisionOutcome {
    if (outcome.kind !== "decided") return outcome;
    this.#decided.add(id);
    const approved = decision.approved;
    const reason = decision.approved ? undefined : decision.reason;
    const edited = decision.approved && decision.input !== undefined;
    queueMicrotask(() => this.#suspendWatch?.check());
    const remember = approved && options.remember === "session" ? ("session" as const) : undefined;
    if (remember && toolName !== undefined) this.#journal.rememberedTools.add(toolName);
    this.#track(
      this.#journalWrite([
        {
          type: "approval",
          turnId: this.id,
          requestId: id,
          toolName: toolName ?? "unknown",
          approved,
          ...(reason !== undefined ? { reason } : {}),
          ...(rememberedTool !== undefined ? { reason: REMEMBERED, decidedBy: "policy" as const } : {}),
          ...(remember ? { remember } : {}),
          // That the person changed the input, never the input itself.
          ...(edited ? { edited: true as const } : {}),
        },
      ]),
    );
    return outcome;
  }

  /** Journals the decisions the workflow's `toolApproval` took since the last update, each once (`decidedBy: "policy"`). */
  #journalPolicyDecisions(): void {
    const decisions = this.#execution?.policyDecisions;
    if (!decisions || decisions.length <= this.#policyJournaled) return;
    const fresh = decisions.slice(this.#policyJournaled);
    this.#policyJournaled = decisions.length;
    for (const decision of fresh) this.events.push({ type: "policy-decision", decision });
    this.#track(
      this.#journalWrite(
        fresh.map((decision) => ({
          type: "approval" as const,
          turnId: this.id,
          requestId: decision.id,
          toolName: decision.toolName,
          approved: decision.approved,
          ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
          decidedBy: "policy" as const,
        })),
      ),
    );
  }

  #toolName(id: string): string | undefined {
    const pending = this.#execution?.requests?.find((request) => request.id === id);
    if (pending) return pending.toolName;
    for (let i = this.events.length - 1; i >= 0; i--) {
      const event = this.events.at(i)!;
      if (event.type === "approval-request" && event.request.id === id) return event.request.toolName;
    }
    return undefined;
  }

  #journalWrite(entries: Parameters<SessionJournal["append"]>[0]): Promise<unknown> {
    return this.#journal.append(entries).catch((error: unknown) => {
      this.#writeError ??= error;
      throw error;
    });
  }

  #track(write: Promise<unknown>): void {
    const tracked = write.then(
      () => {},
      () => {},
    );
    this.#writes.add(tracked);
    void tracked.then(() => this.#writes.delete(tracked));
    quiet(write);
  }
}

const ENDED: DecisionOutcome = Object.freeze({ kind: "ended" });
const isPromise = <T,>(value: T | Promise<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === "function";
const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });
