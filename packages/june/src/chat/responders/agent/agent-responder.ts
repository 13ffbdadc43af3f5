import type { ModelMessage } from "ai";
import type { WorkflowNode } from "../../../runtime/components.js";
import { assertRunCheckpoint, checkpointRequests } from "../../../runtime/checkpoint.js";
import type { ApprovalRequest, DecisionOutcome, PolicyApproval, RunCheckpoint, RunHandle, RunResult, StartOptions, TraceNode } from "../../../runtime/types.js";
import { valueKind } from "../../../errors/value-kind.js";
import { durableSettings, type DurableOption } from "../../durable/checkpoint-codec.js";
import { ReplayBuffer } from "../../internal/replay-buffer.js";
import { AgentReplyError, StreamMismatchError } from "./errors.js";
import { agentTeamResponder, type AgentTeamOptions } from "./agent-team.js";
import type { JuneElement } from "../../../jsx/element.js";
import { findStep, pendingApprovalIds, singleModel, stepToolNames } from "./run-metadata.js";
import { PREPARE } from "../prepare.js";
import type {
  Responder,
  ResponderCheckpoint,
  TurnEvent,
  ResponderExecution,
  ResponderMetadata,
  ResponderResult,
  RespondOptions,
  ResumeOptions,
} from "../../types.js";

/** What `render` gets for each turn. */
export interface AgentRenderOptions {
  /** The user's input for this turn. */
  input: string;
  /**
   * In a responder of several agents (`agentResponder({ agents })`), the `<Tool name="handoff">` this agent's
   * model hands the conversation on with: place it in the workflow. Absent otherwise.
   */
  handoff?: JuneElement;
  /** The completed conversation, as the chat's context built it. */
  messages: ModelMessage[];
  sessionId: string;
  turnId: string;
}

/** The `start()` options an `agentResponder` passes to every run. */
export interface AgentRunOptions {
  /** Most model calls in flight in each turn's run. */
  concurrency?: number;
  /** Milliseconds for each turn's run; past it the turn fails with a `TimeoutError`. */
  timeout?: number;
}

/** Which turn a run answers, as `startRun` gets it. */
export interface AgentTurnInfo {
  sessionId: string;
  turnId: string;
}

/**
 * Launches a turn's workflow and returns its handle: `start()` by default. `options` already holds the turn's
 * `signal` and the responder's `onUpdate`; a host that observes the run composes its own `onUpdate` with it
 * rather than replacing it, or the turn loses its `run-update` events.
 */
export type StartAgentRun = (element: WorkflowNode, options: StartOptions, turn: AgentTurnInfo) => RunHandle;

/** Options for `agentResponder`. */
export interface AgentResponderOptions {
  /** Recorded on each turn's provenance. */
  id?: string;
  /** Recorded on each turn's provenance; change it whenever the workflow, prompts or models change. */
  version?: string;
  /** Builds the workflow for one turn. Nothing is injected: pass `messages` and `input` where you want them. */
  render: (options: AgentRenderOptions) => WorkflowNode;
  /** Picks the reply from the run's result, usually one step's result. Must return a string. */
  reply: (result: RunResult) => string;
  /** Passed to `start()` for every turn. */
  run?: AgentRunOptions;
  /** Launches each turn's run (default `start`). */
  startRun?: StartAgentRun;
  /** Streams this step's text as the reply's `text-delta` events. The step should not call tools. */
  stream?: { step: string };
  /**
   * Makes turns durable: while a turn is unfinished its run's checkpoint is kept in the chat's store (finished
   * steps' results, the waiting step's messages and requests); after `suspendAfterMs` (default 30 s) waiting on
   * approvals alone the turn is suspended, and `session.resume(turnId)` continues it from any process. A request
   * shows (in `requests`, as an `approval-request`) only once a stored checkpoint lists it, and an approved
   * call's outcome is stored as soon as it returns. `encryptionKey` (32 bytes) encrypts checkpoints at rest
   * (AES-256-GCM). Step results must be JSON-safe.
   */
  durable?: DurableOption;
}

/** The responder `agentResponder` returns. */
export interface AgentResponder extends Responder {
  readonly kind: "agent";
}

/** The agent runtime (`runtime/start.js`), loaded by the first turn that runs a workflow: a model chat never loads it. */
let runtime: typeof import("../../../runtime/start.js") | undefined;
let loadingRuntime: Promise<void> | undefined;

/** Loads the agent runtime, once; undefined when it is loaded. */
export function loadRuntime(): Promise<void> | undefined {
  if (runtime) return undefined;
  loadingRuntime ??= import("../../../runtime/start.js").then((module) => {
    runtime = module;
  });
  return loadingRuntime;
}

/**
 * A responder that answers each turn by running a June workflow: `render` builds it from the turn's input and
 * conversation, `start()` runs it (steps, tools, approvals, `Parallel`, `Catch`, concurrency, timeouts, all
 * unchanged), and `reply` picks the reply's text from the `RunResult`. Each commit of the run arrives as a
 * `run-update` event, each approval the run asks for as an `approval-request` event after the update that shows
 * it pending (in a durable turn, once the checkpoint that lists it is stored, after an update of its own);
 * `approve`, `deny` and `steer` go to the run. With `stream: { step }`, that step's text arrives as
 * `text-delta` events, and the reply must continue it. The turn records `kind: "agent"`, `id`, `version`, the
 * model when every step used the same one, and the run's total usage; `result.run` holds the `RunResult`.
 *
 * @example
 * const responder = agentResponder({
 *   id: "engineer",
 *   version: "1",
 *   render: ({ messages, input }) => (
 *     <Agent model={model}>
 *       <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
 *     </Agent>
 *   ),
 *   reply: (result) => String(result.steps.reply),
 *   stream: { step: "reply" },
 * });
 */
export function agentResponder(options: AgentResponderOptions): AgentResponder;
/**
 * A responder of several agents, one holding the conversation at a time; an agent hands it to another with a
 * tool or code. See `AgentTeamOptions` and docs/multi-agent.md.
 */
export function agentResponder(options: AgentTeamOptions): AgentResponder;
export function agentResponder(options: AgentResponderOptions | AgentTeamOptions): AgentResponder {
  if (typeof options === "object" && options !== null && "agents" in options) return agentTeamResponder(options);
  validate(options);
  const { id, version } = options;
  const responder: AgentResponder = {
    kind: "agent",
    respond: (respondOptions) => startExecution(options, respondOptions, undefined),
  };
  if (options.durable !== undefined) {
    Object.assign(responder, {
      durable: options.durable,
      resume: (resumeOptions: ResumeOptions) => {
        assertRunCheckpoint(resumeOptions?.checkpoint, "agentResponder.resume(): checkpoint");
        return startExecution(options, resumeOptions, resumeOptions.checkpoint);
      },
      [PREPARE]: options.startRun ? () => undefined : loadRuntime,
    });
  }
  if (id !== undefined) Object.assign(responder, { id });
  if (version !== undefined) Object.assign(responder, { version });
  return responder;
}

/** One turn of an `agentResponder`: renders its workflow, runs it and follows it (from `from` when resuming). */
export function startExecution(options: AgentResponderOptions, turn: RespondOptions, from: RunCheckpoint | undefined): ResponderExecution {
  // One reader (the turn), and a long run's snapshots are let go of as it takes them: the turn keeps its own.
  const events = new ReplayBuffer<TurnEvent>({ discardRead: true });
  let lastCheckpoint: ResponderCheckpoint | undefined;
  const streamStep = options.stream?.step;
  const announced = new Set<string>();
  // A durable turn shows a request (in `requests` and as an `approval-request`) only once a stored checkpoint
  // lists it: a person never answers a request that a crash would take away. The restored ones are stored.
  const stored = turn.onCheckpoint ? new Set(from ? checkpointRequests(from).map((request) => request.id) : []) : undefined;
  let handle: RunHandle | undefined;
  let latestTree: TraceNode | undefined;
  let streamed = "";
  let streamError: StreamMismatchError | undefined;
  let settled = false;
  /** Steering input given before the run started (the runtime still loading): handed to it once it starts. */
  const steers: string[] = [];

  /** The run's pending requests as the turn shows them: a durable turn's once stored. */
  const visibleRequests = (): readonly ApprovalRequest[] => {
    const requests = handle?.requests ?? [];
    return stored === undefined || requests.every((request) => stored.has(request.id)) ? requests : requests.filter((request) => stored.has(request.id));
  };

  /**
   * Announces the requests the latest snapshot shows pending, each once, after that snapshot's run-update. A
   * durable turn's that were stored after it get a run-update of their own first (its approval rows show them).
   */
  const announceRequests = (afterStore = false): void => {
    // Nothing to walk the tree for while the run has asked for nothing (every commit of most turns).
    if (!handle || !latestTree || settled || handle.requests.length === 0) return;
    const pending = pendingApprovalIds(latestTree);
    let updated = !afterStore;
    for (const request of visibleRequests()) {
      if (announced.has(request.id) || !pending.has(request.id)) continue;
      announced.add(request.id);
      if (!updated) events.push({ type: "run-update", tree: latestTree });
      updated = true;
      events.push({ type: "approval-request", request });
    }
  };

  const streamFrom = (tree: TraceNode): void => {
    if (streamStep === undefined || streamError || turn.signal.aborted) return;
    const node = findStep(tree, streamStep);
    if (!node || node.partialText.length <= streamed.length) return;
    const text = node.partialText;
    if (!text.startsWith(streamed)) {
      streamError = new StreamMismatchError({
        stepId: streamStep,
        streamedChars: streamed.length,
        mismatchAt: firstDifference(streamed, text),
        during: "stream",
        toolCalls: stepToolNames(tree, streamStep),
      });
      handle?.cancel(streamError.message);
      return;
    }
    events.push({ type: "text-delta", text: text.slice(streamed.length) });
    streamed = text;
  };

  const onUpdate = (tree: TraceNode): void => {
    if (settled) return;
    latestTree = tree;
    events.push({ type: "run-update", tree });
    streamFrom(tree);
    announceRequests();
  };

  const finish = (): void => {
    settled = true;
    events.end();
  };

  /** Renders the turn's workflow and starts its run (from the checkpoint when resuming). */
  const launch = (): RunHandle => {
    const element = options.render({ input: turn.input, messages: turn.messages, sessionId: turn.sessionId, turnId: turn.turnId });
    const startRun = options.startRun ?? runtime?.start;
    if (startRun === undefined) throw new Error("agentResponder: the agent runtime is not loaded: resume() is called after the chat awaited the responder's preparation");
    const runOptions: StartOptions = { signal: turn.signal, onUpdate };
    if (options.run?.concurrency !== undefined) runOptions.concurrency = options.run.concurrency;
    if (options.run?.timeout !== undefined) runOptions.timeout = options.run.timeout;
    if (turn.telemetry !== undefined) runOptions.telemetry = turn.telemetry;
    if (turn.prices !== undefined) runOptions.prices = turn.prices;
    if (turn.budget !== undefined) runOptions.budget = turn.budget;
    if (turn.spent !== undefined) runOptions.spent = turn.spent;
    if (turn.toolApproval !== undefined) runOptions.toolApproval = turn.toolApproval;
    if (turn.guardrails?.tool !== undefined) runOptions.guardrails = { tool: turn.guardrails.tool };
    const save = turn.onCheckpoint;
    if (save) {
      runOptions.onCheckpoint = async (checkpoint) => {
        const saving: ResponderCheckpoint = { state: checkpoint, requests: checkpointRequests(checkpoint) };
        lastCheckpoint = saving;
        await save(saving);
        for (const request of saving.requests) stored!.add(request.id);
        announceRequests(true);
      };
    }
    if (from) runOptions.checkpoint = from;
    const launched = startRun(element, runOptions, { sessionId: turn.sessionId, turnId: turn.turnId });
    if (typeof launched !== "object" || launched === null || typeof launched.result?.then !== "function") {
      throw new TypeError("agentResponder: startRun must return the RunHandle that start() returned");
    }
    return launched;
  };
  // A resumed turn starts at once, so a workflow that lost the waiting step (CheckpointMismatchError) throws
  // from resume() and the turn stays as it was.
  if (from) handle = launch();

  const result = (async (): Promise<ResponderResult> => {
    try {
      if (!handle) {
        // The first turn of the process loads the runtime (an await); the next ones start at once.
        const loading = options.startRun ? undefined : loadRuntime();
        if (loading) await loading;
        handle ??= launch();
        for (const input of steers.splice(0)) handle.steer(input);
      }
      announceRequests();
      let run: RunResult;
      try {
        run = await handle.result;
      } catch (error) {
        throw streamError ?? error;
      }
      if (streamError) throw streamError;

      const text: unknown = options.reply(run);
      if (typeof text !== "string") throw new AgentReplyError({ received: valueKind(text), responderId: options.id });
      if (streamStep !== undefined && !turn.signal.aborted) {
        // Usually the very string the step streamed (the step's text is its result): no comparison to make.
        if (text !== streamed && !text.startsWith(streamed)) {
          throw new StreamMismatchError({
            stepId: streamStep,
            streamedChars: streamed.length,
            mismatchAt: firstDifference(streamed, text),
            toolCalls: stepToolNames(run.trace, streamStep),
          });
        }
        if (text.length > streamed.length) events.push({ type: "text-delta", text: text.slice(streamed.length) });
        streamed = text;
      }
      const metadata: ResponderMetadata = { usage: { ...run.usage } };
      if (run.cost?.usd !== undefined) metadata.cost = { ...run.cost };
      const model = singleModel(run.trace);
      if (model) metadata.model = model;
      return { text, metadata, run };
    } catch (error) {
      // Let the turn take the run's last updates (the snapshot that shows what failed) before it fails.
      finish();
      await events.drained();
      throw error;
    } finally {
      finish();
    }
  })();

  return {
    result,
    events,
    get requests(): readonly ApprovalRequest[] {
      return visibleRequests();
    },
    get policyDecisions(): readonly PolicyApproval[] {
      return handle?.policyDecisions ?? [];
    },
    decide: (requestId, decision) => handle?.decide(requestId, decision) ?? NOT_PENDING,
    answer: (requestId, value) => handle?.answer?.(requestId, value) ?? NOT_PENDING,
    steer: (input) => {
      if (handle) return handle.steer(input);
      if (typeof input !== "string") throw new TypeError("steer(input): input must be a string");
      if (!settled) steers.push(input);
    },
    checkpoint: () => lastCheckpoint,
    ...(from ? { restored: handle!.restored ?? Promise.resolve() } : {}),
  };
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function validate(options: AgentResponderOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("agentResponder: expected an options object");
  if (typeof options.render !== "function") throw new TypeError("agentResponder: `render` must be a function that returns the turn's workflow");
  if (typeof options.reply !== "function") throw new TypeError("agentResponder: `reply` must be a function that picks the reply text from the RunResult");
  if (options.startRun !== undefined && typeof options.startRun !== "function") throw new TypeError("agentResponder: `startRun` must be a function");
  if (options.id !== undefined && typeof options.id !== "string") throw new TypeError("agentResponder: `id` must be a string");
  if (options.version !== undefined && typeof options.version !== "string") throw new TypeError("agentResponder: `version` must be a string");
  if (options.stream !== undefined && (typeof options.stream?.step !== "string" || options.stream.step.length === 0)) {
    throw new TypeError("agentResponder: `stream.step` must be the id of the step that writes the reply");
  }
  durableSettings(options.durable, "agentResponder");
  const run = options.run;
  if (run !== undefined) {
    if (typeof run !== "object" || run === null) throw new TypeError("agentResponder: `run` must be an object of `concurrency` and `timeout`");
    if (run.concurrency !== undefined && !(Number.isInteger(run.concurrency) && run.concurrency > 0)) {
      throw new TypeError(`agentResponder: \`run.concurrency\` must be a positive integer, got ${String(run.concurrency)}`);
    }
    if (run.timeout !== undefined && !(typeof run.timeout === "number" && run.timeout > 0)) {
      throw new TypeError(`agentResponder: \`run.timeout\` must be a positive number of milliseconds, got ${String(run.timeout)}`);
    }
  }
}

const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });
