/**
 * The agent run of one turn: what an `agentResponder` (and each agent of a team) does when the chat calls
 * `respond` or `resume`, and the agent runtime it loads on first use. A module of its own, so the responder and
 * the team both import it and neither imports the other's values (no circle).
 */
import type { TurnMemory } from "../../memory/memory-options.js";
import { checkpointRequests } from "../../../runtime/checkpoint.js";
import type { ApprovalRequest, DecisionOutcome, PolicyApproval, RunCheckpoint, RunHandle, RunResult, StartOptions, StepAside, TraceNode } from "../../../runtime/types.js";
import { valueKind } from "../../../errors/value-kind.js";
import { ReplayBuffer } from "../../internal/replay-buffer.js";
import { AgentReplyError, StreamMismatchError } from "./errors.js";
import { findStep, pendingApprovalIds, singleModel, stepToolNames } from "./run-metadata.js";
import { RunError } from "../../../runtime/errors.js";
import { userMessage } from "../../files/turn-input.js";
import type { AgentResponderOptions } from "./agent-responder.js";
import type { ResponderTraceNode } from "../../trace/responder-trace.js";
import type { ResponderCheckpoint, TurnEvent, ResponderExecution, ResponderMetadata, ResponderResult, RespondOptions } from "../../types.js";

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
 * How one agent's run takes part in a turn answered by several in turn (a team's same-turn handoff, see
 * `handoff-chain.ts`): the turn's events are shared, and the run never ends them.
 */
export interface ChainLink {
  /** The turn's events: the run pushes into them and leaves ending them to the chain. */
  readonly events: ReplayBuffer<TurnEvent>;
  /** Each snapshot of the run as the turn shows it (beside the runs of the agents that handed off before). */
  readonly tree: (tree: TraceNode) => ResponderTraceNode;
  /** True once the agent's model handed off: the run's reply is then the text it streamed (`reply` is not asked). */
  readonly handedOff: () => boolean;
  /** Set by the run: the text its `stream` step sent so far. */
  streamed: string;
}

/** One turn of an `agentResponder`: renders its workflow, runs it and follows it (from `from` when resuming). */
export function startExecution(options: AgentResponderOptions, turn: RespondOptions, from: RunCheckpoint | undefined, link?: ChainLink): ResponderExecution {
  // One reader (the turn), and a long run's snapshots are let go of as it takes them: the turn keeps its own.
  const events = link?.events ?? new ReplayBuffer<TurnEvent>({ discardRead: true });
  const shown = link ? link.tree : (tree: TraceNode): ResponderTraceNode => tree;
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
      if (!updated) events.push({ type: "run-update", tree: shown(latestTree) });
      updated = true;
      events.push({ type: "approval-request", request });
    }
  };

  const streamFrom = (tree: TraceNode): void => {
    if (streamStep === undefined || streamError || turn.signal.aborted) return;
    const node = findStep(tree, streamStep);
    // A step with an `output` streams JSON: its value goes out in the run-updates (`/ui-chat`'s data-june-output
    // part), and the reply, readable text, is sent whole once the run is done.
    if (!node || node.structured === true || node.partialText.length <= streamed.length) return;
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
    if (link) link.streamed = text;
  };

  /** The streamed step's reasoning and sources, each after the text its model wrote before it. */
  const onAside = ({ stepId, text, aside }: StepAside): void => {
    if (stepId !== streamStep || settled || streamError || turn.signal.aborted) return;
    if (text.length > streamed.length && text.startsWith(streamed)) {
      events.push({ type: "text-delta", text: text.slice(streamed.length) });
      streamed = text;
    }
    events.push(aside);
  };

  const onUpdate = (tree: TraceNode): void => {
    if (settled) return;
    latestTree = tree;
    events.push({ type: "run-update", tree: shown(tree) });
    streamFrom(tree);
    announceRequests();
  };

  const finish = (): void => {
    settled = true;
    if (!link) events.end();
  };

  /** Renders the turn's workflow and starts its run (from the checkpoint when resuming). */
  const launch = (): RunHandle => {
    const element = options.render({
      input: turn.input,
      ...(turn.files && turn.files.length > 0 ? { files: turn.files } : {}),
      message: turn.message ?? userMessage(turn.input, turn.files ?? []),
      messages: turn.messages,
      memory: turn.memory ?? NO_MEMORY,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
    });
    const startRun = options.startRun ?? runtime?.start;
    if (startRun === undefined) throw new Error("agentResponder: the agent runtime is not loaded: resume() is called after the chat awaited the responder's preparation");
    const runOptions: StartOptions = { signal: turn.signal, onUpdate, ...(streamStep !== undefined && { onAside }) };
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

  /** What the run spent, once it settled (succeeded, failed or canceled). */
  let spent: ResponderMetadata | undefined;
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
        // A failed or canceled run still spent what its model calls did.
        if (RunError.isInstance(error)) spent = runSpent(error.result);
        throw streamError ?? error;
      }
      spent = runSpent(run);
      if (streamError) throw streamError;

      const text: unknown = link?.handedOff() ? streamed : options.reply(run);
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
        if (link) link.streamed = text;
      }
      return { text, metadata: runSpent(run), run };
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
    spent: () => spent,
    ...(from ? { restored: handle!.restored ?? Promise.resolve() } : {}),
  };
}

/** A run's usage, cost (when known) and model (when every step used one), as a turn's metadata holds them. */
function runSpent(run: RunResult): ResponderMetadata {
  const metadata: ResponderMetadata = { usage: { ...run.usage } };
  if (run.cost?.usd !== undefined) metadata.cost = { ...run.cost };
  const model = singleModel(run.trace);
  if (model) metadata.model = model;
  return metadata;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

const NOT_PENDING: DecisionOutcome = Object.freeze({ kind: "not-pending" });

/** What `render` gets as `memory` in a chat that keeps none. */
const NO_MEMORY: TurnMemory = Object.freeze({ working: undefined, recalled: Object.freeze([]) as unknown as TurnMemory["recalled"] });
