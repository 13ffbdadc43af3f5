import type { WorkflowNode } from "../../../runtime/components.js";
import type { RunResult } from "../../../runtime/types.js";
import type { DurableOption } from "../../durable/checkpoint-codec.js";
import { durableSettings } from "../../durable/checkpoint-codec.js";
import type { RespondOptions, ResumeOptions } from "../../types.js";
import { PREPARE } from "../prepare.js";
import type { AgentRenderOptions, AgentResponder, AgentRunOptions, StartAgentRun } from "./agent-responder.js";
import { loadRuntime } from "./agent-run.js";
import { chainExecution, chainStart } from "./handoff-chain.js";

export { HANDOFF_TOOL } from "./handoff-tool.js";

/** One agent of `agentResponder({ agents })`: a workflow per turn, like a single `agentResponder`'s. */
export interface TeamAgent {
  /** Recorded on each turn it answers (`metadata.agent.version`); change it when its workflow, prompts or models change. */
  version?: string;
  /** What it does: the handoff tool tells the other agents' models. */
  description?: string;
  /**
   * Builds its workflow for one turn. `handoff` is the `<Tool name="handoff">` its model may call to hand the
   * conversation to another agent (with a reason): place it in the workflow where the model should have it.
   */
  render: (options: AgentRenderOptions) => WorkflowNode;
  /** Picks the reply from the run's result. Must return a string. */
  reply: (result: RunResult) => string;
  /** Streams this step's text as the reply's `text-delta` events. */
  stream?: { step: string };
  /**
   * Code's handoff: after its run, the agent to hand the conversation to (or nothing), who then answers the same
   * turn (`handoff: "next-turn"`: the next one). Wins over the model's.
   */
  handoff?: (result: RunResult) => string | { to: string; reason?: string } | undefined;
}

/** Options for `agentResponder({ agents, start })`: a chat answered by several agents, one at a time. */
export interface AgentTeamOptions {
  /** Recorded on each turn's provenance (`metadata.responder`). */
  id?: string;
  version?: string;
  /** The agents, by the id the journal, the handoff tool and `metadata.agent` name them with. */
  agents: Record<string, TeamAgent>;
  /** The agent that holds a new session's conversation. */
  start: string;
  run?: AgentRunOptions;
  startRun?: StartAgentRun;
  durable?: DurableOption;
  /**
   * When the agent handed to answers: `"same-turn"` (the default) answers the message that was handed off, in
   * the same turn (its reply is the turn's reply); `"next-turn"` lets the handing agent's turn end as usual and
   * the new agent answers from the next message on.
   */
  handoff?: "same-turn" | "next-turn";
  /** How many times one turn may hand off (default 3); past it the turn fails with a `HandoffError`. */
  maxHandoffs?: number;
}

/**
 * `agentResponder({ agents, start })`: each turn goes to the agent that holds the conversation (the session
 * reads it from its journal: the latest turn's handoff, else the agent that answered it; `start` for a new
 * session), which answers with its own workflow. An agent hands off with the `handoff` tool its `render` gets
 * (the model gives the agent and a reason) or with its `handoff` function, and the new agent answers the same
 * input in the same turn (`handoff: "next-turn"`: from the next turn on), at most `maxHandoffs` times a turn.
 * The turn's metadata records `handoff: { from, to, reason }` (a list when it handed on more than once), and
 * `metadata.agent`, the agent that answered; later turns go to the last `to`.
 */
export function agentTeamResponder(options: AgentTeamOptions): AgentResponder {
  validateTeam(options);
  const ids = Object.keys(options.agents);
  const responder: AgentResponder = {
    kind: "agent",
    agents: Object.freeze([...ids]),
    respond: (turn) => chainExecution(options, turn, { agent: holder(options, turn), handoffs: [], spent: undefined, run: undefined }),
  };
  if (options.durable !== undefined) {
    Object.assign(responder, {
      durable: options.durable,
      resume: (turn: ResumeOptions) => {
        return chainExecution(options, turn, chainStart(options, holder(options, turn), turn?.checkpoint));
      },
      [PREPARE]: options.startRun ? () => undefined : loadRuntime,
    });
  }
  if (options.id !== undefined) Object.assign(responder, { id: options.id });
  if (options.version !== undefined) Object.assign(responder, { version: options.version });
  return responder;
}

/** The agent that holds the conversation; one the journal names that the responder no longer has gives way to `start`. */
function holder(options: AgentTeamOptions, turn: RespondOptions): string {
  return turn?.agent !== undefined && Object.hasOwn(options.agents, turn.agent) ? turn.agent : options.start;
}

function validateTeam(options: AgentTeamOptions): void {
  const agents = options.agents;
  if (typeof agents !== "object" || agents === null || Array.isArray(agents) || Object.keys(agents).length === 0) {
    throw new TypeError("agentResponder: `agents` must be an object of agents by id, at least one");
  }
  for (const [id, agent] of Object.entries(agents)) {
    if (typeof agent?.render !== "function") throw new TypeError(`agentResponder: agent "${id}" needs \`render\`, a function that returns the turn's workflow`);
    if (typeof agent.reply !== "function") throw new TypeError(`agentResponder: agent "${id}" needs \`reply\`, a function that picks the reply text from the RunResult`);
    if (agent.handoff !== undefined && typeof agent.handoff !== "function") throw new TypeError(`agentResponder: agent "${id}"'s \`handoff\` must be a function`);
    if (agent.version !== undefined && typeof agent.version !== "string") throw new TypeError(`agentResponder: agent "${id}"'s \`version\` must be a string`);
  }
  if (typeof options.start !== "string" || !Object.hasOwn(agents, options.start)) {
    throw new TypeError(`agentResponder: \`start\` must name one of the agents (${Object.keys(agents).join(", ")}), got ${JSON.stringify(options.start)}`);
  }
  if ("render" in options || "reply" in options) throw new TypeError("agentResponder: give `agents` and `start`, or `render` and `reply`, not both");
  if (options.handoff !== undefined && options.handoff !== "same-turn" && options.handoff !== "next-turn") {
    throw new TypeError(`agentResponder: \`handoff\` must be "same-turn" or "next-turn", got ${JSON.stringify(options.handoff)}`);
  }
  if (options.maxHandoffs !== undefined && !(Number.isInteger(options.maxHandoffs) && options.maxHandoffs >= 1)) {
    throw new TypeError(`agentResponder: \`maxHandoffs\` must be a whole number, 1 or more, got ${String(options.maxHandoffs)}`);
  }
  durableSettings(options.durable, "agentResponder");
}
