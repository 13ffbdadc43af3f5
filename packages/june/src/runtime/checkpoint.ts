import type { ModelMessage } from "ai";
import { StepResultNotSerializableError } from "./errors.js";
import type { ApprovalRequest, CheckpointRequest, RunCheckpoint, StartOptions, StepCheckpoint, TraceError, Usage } from "./types.js";
import { ZERO_USAGE } from "./usage.js";
import type { Cost } from "../cost/price.js";

/** A decision as a step hands it to its checkpoint: `input` when an approval edited the call's input. */
export interface Decided {
  approved: boolean;
  reason?: string;
  input?: unknown;
  /** Taken by a policy (the workflow's `toolApproval`, a tool guardrail, "remember for this session"), not a person. */
  decidedBy?: "policy";
}

/**
 * A run's checkpoint as it moves: what finished, what failed, which model steps wait and on what. Each change
 * is handed to `onCheckpoint` as a JSON-safe copy, in order (one write at a time); the step that changed it
 * waits for that write before going on, so an approved call is marked `started` on disk before it executes.
 * Built from the `checkpoint` a run starts from, whose waiting steps are taken once each as they run again.
 */
export class Checkpointer {
  readonly #onCheckpoint: StartOptions["onCheckpoint"];
  readonly #completed: string[];
  readonly #steps: Record<string, unknown>;
  readonly #failed: Record<string, TraceError>;
  readonly #waiting: Record<string, StepCheckpoint>;
  /** Waiting steps of the starting checkpoint not yet running again. */
  readonly #toRestore: Set<string>;
  readonly #restored: { promise: Promise<void>; resolve: () => void };
  #queue: Promise<void> = Promise.resolve();
  #usage: () => Usage = () => ZERO_USAGE;
  #cost: (() => Cost) | undefined;

  constructor(from: RunCheckpoint | undefined, onCheckpoint: StartOptions["onCheckpoint"]) {
    this.#onCheckpoint = onCheckpoint;
    this.#completed = [...(from?.completed ?? [])];
    this.#steps = { ...(from?.steps ?? {}) };
    this.#failed = { ...(from?.failed ?? {}) };
    this.#waiting = { ...(from?.waiting ?? {}) };
    this.#toRestore = new Set(Object.keys(this.#waiting));
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#restored = { promise, resolve };
    if (this.#toRestore.size === 0) resolve();
  }

  /** True when checkpoints are written (an `onCheckpoint` was given): step results must be JSON-safe. */
  get saving(): boolean {
    return this.#onCheckpoint !== undefined;
  }

  /** Resolves once every waiting step of the starting checkpoint runs again (or `settle()`). */
  get restored(): Promise<void> {
    return this.#restored.promise;
  }

  /** The waiting steps of the starting checkpoint that have not run again. */
  get unrestored(): string[] {
    return [...this.#toRestore];
  }

  /** Where the usage comes from at each write (the run's running total). */
  set usageSource(source: () => Usage) {
    this.#usage = source;
  }

  /** Where the cost comes from at each write (the run's running total, kept across a resume). */
  set costSource(source: () => Cost) {
    this.#cost = source;
  }

  isCompleted(stepId: string): boolean {
    return this.#completed.includes(stepId);
  }

  result(stepId: string): unknown {
    return this.#steps[stepId];
  }

  failure(stepId: string): TraceError | undefined {
    return Object.prototype.hasOwnProperty.call(this.#failed, stepId) ? this.#failed[stepId] : undefined;
  }

  /** The saved state of a step that waited, taken once (the step runs again from it). */
  takeWaiting(stepId: string): StepCheckpoint | undefined {
    if (!this.#toRestore.has(stepId)) return undefined;
    this.#toRestore.delete(stepId);
    return this.#waiting[stepId];
  }

  /** The step's requests are open again; once every restored step says so, `restored` resolves. */
  markRestored(): void {
    if (this.#toRestore.size === 0) this.#restored.resolve();
  }

  /** The run ended: nothing more will be restored. */
  settle(): void {
    this.#restored.resolve();
  }

  stepDone(stepId: string, result: unknown): Promise<void> {
    if (!this.#completed.includes(stepId)) this.#completed.push(stepId);
    if (result === undefined) delete this.#steps[stepId];
    else this.#steps[stepId] = result;
    delete this.#waiting[stepId];
    return this.#write();
  }

  stepFailed(stepId: string, error: TraceError): Promise<void> {
    this.#failed[stepId] = error;
    delete this.#waiting[stepId];
    return this.#write();
  }

  /** A model step's call asked for approval: its messages and requests. */
  stepWaiting(stepId: string, state: StepCheckpoint): Promise<void> {
    this.#waiting[stepId] = state;
    return this.#write();
  }

  /**
   * The decisions on a waiting step's requests, before any approved call executes (marked `started`). An
   * edited approval keeps the input the call runs with in place of the model's (`decision.edited`).
   */
  stepDecided(stepId: string, decisions: ReadonlyMap<string, Decided>): Promise<void> {
    const state = this.#waiting[stepId];
    if (!state) return Promise.resolve();
    const requests = state.requests.map((request): CheckpointRequest => {
      const decided = decisions.get(request.id);
      if (!decided) return request;
      const { retry: _retry, ...rest } = request;
      const { input, ...decision } = decided;
      if (input !== undefined) return { ...rest, input, decision: { ...decision, edited: true }, started: true };
      return { ...rest, decision, ...(decision.approved ? { started: true } : {}) };
    });
    this.#waiting[stepId] = { ...state, requests };
    return this.#write();
  }

  /** True when the checkpoint marks this call of the step approved and started (its outcome is to be kept). */
  isStarted(stepId: string, toolCallId: string): boolean {
    return this.#waiting[stepId]?.requests.some((request) => request.toolCallId === toolCallId && request.started === true) ?? false;
  }

  /** An approved call's `execute` returned or threw: its outcome, as the model is given it, before the next call. */
  toolFinished(stepId: string, toolCallId: string, output: NonNullable<CheckpointRequest["output"]>): Promise<void> {
    const state = this.#waiting[stepId];
    if (!state || !this.isStarted(stepId, toolCallId)) return Promise.resolve();
    const requests = state.requests.map((request) => (request.toolCallId === toolCallId ? { ...request, output } : request));
    this.#waiting[stepId] = { ...state, requests };
    return this.#write();
  }

  /** A call of a step that had waited finished: its answered requests are history now, in its messages. */
  stepProgress(stepId: string, messages: ModelMessage[], calls: number): Promise<void> {
    if (!this.#waiting[stepId]) return Promise.resolve();
    this.#waiting[stepId] = { messages, requests: [], calls };
    return this.#write();
  }

  /** True when the step has a saved state (it waited on approval at some point). */
  isWaiting(stepId: string): boolean {
    return this.#waiting[stepId] !== undefined;
  }

  /** A JSON-safe copy of the checkpoint now. */
  snapshot(): RunCheckpoint {
    const checkpoint: RunCheckpoint = {
      version: 1,
      completed: [...this.#completed],
      steps: this.#steps,
      failed: this.#failed,
      waiting: this.#waiting,
      usage: { ...this.#usage() },
    };
    if (this.#cost) checkpoint.cost = { ...this.#cost() };
    return JSON.parse(JSON.stringify(checkpoint)) as RunCheckpoint;
  }

  #write(): Promise<void> {
    const onCheckpoint = this.#onCheckpoint;
    if (!onCheckpoint) return Promise.resolve();
    const checkpoint = this.snapshot();
    const write = this.#queue.then(() => onCheckpoint(checkpoint));
    this.#queue = write.catch(() => {});
    return write;
  }
}

/**
 * The requests a checkpoint waits on, oldest first, as a run started from it will list them: undecided ones,
 * and approved calls that may have begun and left no outcome (`retry: true`). Calls decided but not begun, and
 * finished calls (their `output` stored), are applied on resume.
 */
export function checkpointRequests(checkpoint: RunCheckpoint): ApprovalRequest[] {
  const out: ApprovalRequest[] = [];
  for (const [stepId, state] of Object.entries(checkpoint.waiting)) {
    for (const request of state.requests) {
      const retry = needsRetry(request);
      if (request.decision && !retry) continue;
      out.push(toRequest(stepId, request, retry || request.retry === true));
    }
  }
  return out;
}

/** An approved call that may have begun and whose outcome is not stored: it runs again only on a new approval. */
export function needsRetry(request: CheckpointRequest): boolean {
  return request.decision?.approved === true && request.started === true && request.output === undefined;
}

function toRequest(stepId: string, request: CheckpointRequest, retry: boolean): ApprovalRequest {
  return {
    id: request.id,
    stepId,
    toolName: request.toolName,
    toolCallId: request.toolCallId,
    input: request.input,
    ...(retry ? { retry: true } : {}),
  };
}

/** Throws `TypeError` naming what is wrong unless `value` looks like a `RunCheckpoint`. */
export function assertRunCheckpoint(value: unknown, what = "start(): checkpoint"): asserts value is RunCheckpoint {
  const fail = (detail: string): never => {
    throw new TypeError(`${what} is not a run checkpoint: ${detail}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("expected an object");
  const c = value as Partial<RunCheckpoint>;
  if (c.version !== 1) fail(`unknown version ${JSON.stringify(c.version)}`);
  if (!Array.isArray(c.completed) || !c.completed.every((id) => typeof id === "string")) fail("`completed` must be an array of step ids");
  for (const key of ["steps", "failed", "waiting", "usage"] as const) {
    if (typeof c[key] !== "object" || c[key] === null || Array.isArray(c[key])) fail(`\`${key}\` must be an object`);
  }
  for (const [stepId, state] of Object.entries(c.waiting!)) {
    if (!Array.isArray(state?.messages) || !Array.isArray(state?.requests) || typeof state?.calls !== "number") {
      fail(`waiting step "${stepId}" needs \`messages\`, \`requests\` and \`calls\``);
    }
  }
}

/**
 * Throws `StepResultNotSerializableError` unless `value` survives `JSON.stringify` unchanged: plain objects
 * and arrays of strings, finite numbers, booleans and null (an object property may be `undefined`; it is
 * left out, as JSON does). A top-level `undefined` is fine: the step has no result.
 */
export function assertJsonSafe(value: unknown, stepId: string): void {
  if (value === undefined) return;
  const seen = new Set<object>();
  const visit = (v: unknown, path: string, inObject: boolean): void => {
    switch (typeof v) {
      case "string":
      case "boolean":
        return;
      case "number":
        if (!Number.isFinite(v)) throw new StepResultNotSerializableError({ stepId, path, found: String(v) });
        return;
      case "undefined":
        if (inObject) return;
        throw new StepResultNotSerializableError({ stepId, path, found: "undefined" });
      case "bigint":
      case "symbol":
      case "function":
        throw new StepResultNotSerializableError({ stepId, path, found: `a ${typeof v}` });
      case "object": {
        if (v === null) return;
        if (seen.has(v)) throw new StepResultNotSerializableError({ stepId, path, found: "a circular reference" });
        if (Array.isArray(v)) {
          seen.add(v);
          v.forEach((item, i) => visit(item, `${path}[${i}]`, false));
          seen.delete(v);
          return;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
          const name = (v as { constructor?: { name?: string } }).constructor?.name ?? "object";
          throw new StepResultNotSerializableError({ stepId, path, found: `a ${name}` });
        }
        seen.add(v);
        for (const [key, child] of Object.entries(v)) visit(child, /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`, true);
        seen.delete(v);
        return;
      }
      default:
        return;
    }
  };
  visit(value, "result", false);
}
