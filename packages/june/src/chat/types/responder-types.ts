import type { TurnMemory } from "../memory/memory-options.js";
import type { ModelMessage, UserModelMessage } from "ai";
import type { Guardrails } from "../../guardrails/types.js";
import type { ToolApprovalPolicy } from "../../runtime/tool-approval.js";
import type { ApprovalDecision, ApprovalRequest, DecisionOutcome, PolicyApproval, RunResult } from "../../runtime/types.js";
import type { DurableOption } from "../durable/checkpoint-codec.js";
import type { TelemetryOption } from "../../telemetry/options.js";
import type { Prices } from "../../cost/price.js";
import type { Budget, Spent } from "../../cost/budget.js";
import type { TurnMetadata } from "../../stores/types.js";
import type { TurnFile } from "../files/turn-input.js";
import type { TurnEvent } from "./event-types.js";

/** What a responder gets for each turn. */
export interface RespondOptions {
  /** The user's input: the turn's text (`""` for a turn of files alone). */
  input: string;
  /** The files the turn sent, with their bytes, in order (absent when none). */
  files?: readonly TurnFile[];
  /**
   * The turn's user message as the model gets it: the text, then each file as an AI SDK file part (a text
   * turn's is `{ role: "user", content: input }`). Always set by a session: append it to `messages`.
   */
  message?: UserModelMessage;
  /** The conversation so far, as the chat's context built it. */
  messages: ModelMessage[];
  /** Aborts when the turn is canceled. */
  signal: AbortSignal;
  sessionId: string;
  turnId: string;
  /**
   * The agent that holds the conversation, as the session's journal says (the latest earlier turn on this
   * branch that names one: its `metadata.handoff.to`, else its `metadata.agent.id`); absent when none does.
   * A responder of several agents (`agentResponder({ agents })`) answers with it.
   */
  agent?: string;
  /**
   * Given on a durable turn (the responder has `durable`): a responder that can resume calls it with each
   * new state and waits for it (the chat stores it) before going on, above all before an approved tool runs.
   */
  onCheckpoint?: (checkpoint: ResponderCheckpoint) => Promise<void>;
  /**
   * The turn's OpenTelemetry settings when the chat records spans (`false` when the chat's `telemetry` is
   * `false`): a responder that starts a run passes it on (`start(element, { telemetry })`) so the run's
   * spans nest under the turn's. `modelResponder` and `agentResponder` do.
   */
  telemetry?: TelemetryOption;
  /** The chat's prices (`createChat({ prices })`): a responder that starts a run passes them on (`start(element, { prices })`). */
  prices?: Prices;
  /** The chat's budgets (`createChat({ budget })`): a responder stops before a model call once one is spent (`start(element, { budget, spent })`). */
  budget?: Budget;
  /** What the session's other turns spent, counted against `budget.session`. */
  spent?: Spent;
  /**
   * The chat's `toolApproval` (`createChat({ toolApproval })`): a workflow responder applies it to every step
   * with no policy of its own (`agentResponder` does, through `start({ toolApproval })`).
   */
  toolApproval?: ToolApprovalPolicy;
  /** The chat's tool guardrails (`createChat({ guardrails: { tool } })`), for a workflow responder to apply to every step. */
  guardrails?: Pick<Guardrails, "tool">;
  /**
   * The chat's memory for this turn (`createChat({ memory })`): the working memory's text and the earlier turns
   * recalled. `modelResponder` sends it after its instructions, marked as memory; `agentResponder` hands it to
   * `render` and nowhere else. Absent when the chat keeps no memory.
   */
  memory?: TurnMemory;
}

/** A durable turn's state as its responder hands it over. JSON-safe. */
export interface ResponderCheckpoint {
  /** Whatever the responder needs to go on (`agentResponder`: the run's `RunCheckpoint`). */
  state: unknown;
  /** The requests the turn waits on now, inputs included (listed by `session.pendingApprovals()`). */
  requests: readonly ApprovalRequest[];
}

/** What `responder.resume()` gets: the turn as it was first answered, and its last checkpoint's `state`. */
export interface ResumeOptions extends RespondOptions {
  checkpoint: unknown;
}

/**
 * The metadata a responder may report; June keeps only these fields. A turn's journaled `TurnMetadata`
 * is this and the `responder` that answered (which June sets).
 */
export type ResponderMetadata = Omit<TurnMetadata, "responder">;

export interface ResponderResult {
  text: string;
  metadata?: ResponderMetadata;
  /** An agent turn's `RunResult`, kept in memory only. */
  run?: RunResult;
}

/** One turn's execution, returned by `respond()` right away. */
export interface ResponderExecution {
  result: Promise<ResponderResult>;
  /** Read once, in order, as the turn runs. */
  events?: AsyncIterable<TurnEvent>;
  readonly requests?: readonly ApprovalRequest[];
  /** Tool calls decided by policy (`toolApproval`) so far, oldest first: the turn journals each once. */
  readonly policyDecisions?: readonly PolicyApproval[];
  /**
   * Decides one of `requests` and says what happened: `decided`, or `not-pending` (unknown, withdrawn or
   * decided already). An approval's `input`, when given, replaces the model's once checked (see
   * `RunHandle.decide`: a promise then, rejected with `ToolInputInvalidError` or `ApprovalEditRefusedError`
   * and nothing decided).
   */
  decide?(id: string, decision: ApprovalDecision): DecisionOutcome | Promise<DecisionOutcome>;
  /** Answers a question (a request with `question`): see `Turn.answer`. Says what happened, as `decide` does. */
  answer?(id: string, value: unknown): DecisionOutcome;
  /**
   * Checks an answer to a question before `answer` is called with it (the chat's input and tool guardrails):
   * rejects with the reason it is refused (`GuardrailTrippedError`), the question still pending.
   */
  checkAnswer?(id: string, value: unknown): Promise<void>;
  /** Takes more input while the turn runs. */
  steer?(input: string): void | Promise<void>;
  /** A durable execution's latest checkpoint, if any. */
  checkpoint?(): ResponderCheckpoint | undefined;
  /** A resumed execution: resolves once its restored requests are in `requests` (or it ended). */
  restored?: Promise<void>;
  /**
   * What the turn's model calls spent so far (`usage`, `cost` when known, `model`). Read when the turn ends
   * without a result (failed, blocked, canceled): its journaled record keeps what it spent, and the session's
   * cost and budget count it. June's responders give it; a custom one that leaves it out records no usage then.
   */
  spent?(): ResponderMetadata | undefined;
}

/** Answers turns. See the responders page. */
export interface Responder {
  /** `"model"`, `"agent"`, or `"custom"` (the default). */
  kind?: string;
  id?: string;
  version?: string;
  /**
   * The agents of a responder of several (`agentResponder({ agents })`): with it, the session tells each turn
   * which of them holds the conversation (`RespondOptions.agent`, from the journal).
   */
  readonly agents?: readonly string[];
  respond(options: RespondOptions): ResponderExecution;
  /**
   * Makes the responder's turns durable: checkpointed while unfinished, suspended after
   * `suspendAfterMs` waiting on approvals alone, resumable from any process (needs `resume`).
   */
  durable?: DurableOption;
  /** Continues a durable turn from its last checkpoint (`session.resume`). */
  resume?(options: ResumeOptions): ResponderExecution;
}
