import type { ModelMessage, UserModelMessage } from "ai";
import type { TurnFile } from "../../files/turn-input.js";
import type { WorkflowNode } from "../../../runtime/components.js";
import { assertRunCheckpoint } from "../../../runtime/checkpoint.js";
import type { RunHandle, RunResult, StartOptions } from "../../../runtime/types.js";
import { durableSettings, type DurableOption } from "../../durable/checkpoint-codec.js";
import { agentTeamResponder, type AgentTeamOptions } from "./agent-team.js";
import { loadRuntime, startExecution } from "./agent-run.js";
import type { JuneElement } from "../../../jsx/element.js";
import { PREPARE } from "../prepare.js";
import type { Responder, ResumeOptions } from "../../types.js";
import type { TurnMemory } from "../../memory/memory-options.js";

/** What `render` gets for each turn. */
export interface AgentRenderOptions {
  /** The user's input for this turn: its text (`""` for a turn of files alone). */
  input: string;
  /** The files the turn sent, with their bytes (absent when none). */
  files?: readonly TurnFile[];
  /**
   * The turn's user message, its text then its files as AI SDK file parts: `prompt={[...messages, message]}`
   * sends the files too (`{ role: "user", content: input }` sends the text alone).
   */
  message: UserModelMessage;
  /**
   * In a responder of several agents (`agentResponder({ agents })`), the `<Tool name="handoff">` this agent's
   * model hands the conversation on with: place it in the workflow. Absent otherwise.
   */
  handoff?: JuneElement;
  /** The completed conversation, as the chat's context built it. */
  messages: ModelMessage[];
  /**
   * The chat's memory for this turn (`createChat({ memory })`): `working` (the text `<Memory />` keeps, else the
   * template; undefined when none) and `recalled` (earlier turns of the owner's other sessions, with their session
   * and turn ids and scores). Nothing of it reaches a step unless you pass it there.
   */
  memory: TurnMemory;
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
  /** Streams this step's text as the reply's `text-delta` events (its model's reasoning and sources as events of their own, in place). The step should not call tools. */
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
