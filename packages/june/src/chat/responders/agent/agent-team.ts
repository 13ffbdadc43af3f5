import { jsonSchema, tool } from "ai";
import { createElement, type JuneElement } from "../../../jsx/element.js";
import { Tool, type WorkflowNode } from "../../../runtime/components.js";
import { streamSafe } from "../../../runtime/streamed-step.js";
import { assertRunCheckpoint } from "../../../runtime/checkpoint.js";
import type { RunResult } from "../../../runtime/types.js";
import type { DurableOption } from "../../durable/checkpoint-codec.js";
import { durableSettings } from "../../durable/checkpoint-codec.js";
import type { HandoffRecord } from "../../../stores/types.js";
import type { ResponderExecution, RespondOptions, ResumeOptions } from "../../types.js";
import { PREPARE } from "../prepare.js";
import type { AgentRenderOptions, AgentResponder, AgentResponderOptions, AgentRunOptions, StartAgentRun } from "./agent-responder.js";
import { loadRuntime, startExecution } from "./agent-run.js";

/** The name of the tool an agent's model hands the conversation on with (`render`'s `handoff`). */
export const HANDOFF_TOOL = "handoff";

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
  /** Code's handoff: after its run, the agent to hand the conversation to (or nothing). Wins over the model's. */
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
}

/**
 * `agentResponder({ agents, start })`: each turn goes to the agent that holds the conversation (the session
 * reads it from its journal: the latest turn's handoff, else the agent that answered it; `start` for a new
 * session), which answers with its own workflow. An agent hands off with the `handoff` tool its `render` gets
 * (the model gives the agent and a reason) or with its `handoff` function; the turn's metadata then records
 * `handoff: { from, to, reason }`, and the next turn goes to `to`. Every turn records `metadata.agent`.
 */
export function agentTeamResponder(options: AgentTeamOptions): AgentResponder {
  validateTeam(options);
  const ids = Object.keys(options.agents);
  const responder: AgentResponder = {
    kind: "agent",
    agents: Object.freeze([...ids]),
    respond: (turn) => answer(options, turn, undefined),
  };
  if (options.durable !== undefined) {
    Object.assign(responder, {
      durable: options.durable,
      resume: (turn: ResumeOptions) => {
        assertRunCheckpoint(turn?.checkpoint, "agentResponder.resume(): checkpoint");
        return answer(options, turn, turn.checkpoint);
      },
      [PREPARE]: options.startRun ? () => undefined : loadRuntime,
    });
  }
  if (options.id !== undefined) Object.assign(responder, { id: options.id });
  if (options.version !== undefined) Object.assign(responder, { version: options.version });
  return responder;
}

function answer(options: AgentTeamOptions, turn: RespondOptions, from: ResumeOptions["checkpoint"] | undefined): ResponderExecution {
  // An agent the journal names that the responder no longer has: the conversation goes back to `start`.
  const key = turn.agent !== undefined && Object.hasOwn(options.agents, turn.agent) ? turn.agent : options.start;
  const agent = options.agents[key]!;
  let handed: { to: string; reason?: string } | undefined;
  const handoff = handoffTool(options.agents, key, (to, reason) => {
    handed = { to, reason };
  });
  const single: AgentResponderOptions = {
    render: (renderOptions) => agent.render(handoff ? { ...renderOptions, handoff } : renderOptions),
    reply: agent.reply,
  };
  if (options.id !== undefined) single.id = options.id;
  if (options.version !== undefined) single.version = options.version;
  if (agent.stream !== undefined) single.stream = agent.stream;
  if (options.run !== undefined) single.run = options.run;
  if (options.startRun !== undefined) single.startRun = options.startRun;
  if (options.durable !== undefined) single.durable = options.durable;
  const execution = startExecution(single, turn, from as never);
  execution.result = execution.result.then((result) => {
    const byCode = agent.handoff && result.run ? codeHandoff(agent.handoff(result.run), options.agents, key) : undefined;
    const chosen = byCode ?? handed;
    const handoffRecord: HandoffRecord | undefined = chosen && chosen.to !== key ? { from: key, to: chosen.to, ...(chosen.reason !== undefined ? { reason: chosen.reason } : {}) } : undefined;
    return {
      ...result,
      metadata: {
        ...result.metadata,
        agent: { id: key, ...(agent.version !== undefined ? { version: agent.version } : {}) },
        ...(handoffRecord ? { handoff: handoffRecord } : {}),
      },
    };
  });
  return execution;
}

/** The `<Tool name="handoff">` of agent `from`: its model names another agent and says why. None when it is alone. */
function handoffTool(agents: Record<string, TeamAgent>, from: string, onHandoff: (to: string, reason: string | undefined) => void): JuneElement | undefined {
  const others = Object.keys(agents).filter((id) => id !== from);
  if (others.length === 0) return undefined;
  const listed = others.map((id) => (agents[id]!.description ? `${id} (${agents[id]!.description})` : id)).join("; ");
  // June's own: a streamed step may call it (it only names the next agent).
  const value = streamSafe(tool({
    description: `Hand the conversation to another agent, who answers the user from the next message on. Agents: ${listed}.`,
    inputSchema: jsonSchema<{ agent: string; reason: string }>({
      type: "object",
      properties: { agent: { type: "string", enum: others }, reason: { type: "string", description: "Why this agent should take over" } },
      required: ["agent", "reason"],
      additionalProperties: false,
    }),
    execute: async ({ agent, reason }) => {
      if (!others.includes(agent)) throw new TypeError(`handoff: unknown agent ${JSON.stringify(agent)}; the agents are ${others.join(", ")}`);
      onHandoff(agent, typeof reason === "string" ? reason : undefined);
      return `Handed off to ${agent}: from the user's next message on, ${agent} answers.`;
    },
  }));
  return createElement(Tool, { name: HANDOFF_TOOL, value });
}

function codeHandoff(value: ReturnType<NonNullable<TeamAgent["handoff"]>>, agents: Record<string, TeamAgent>, from: string): { to: string; reason?: string } | undefined {
  if (value === undefined) return undefined;
  const chosen = typeof value === "string" ? { to: value } : value;
  if (typeof chosen?.to !== "string" || !Object.hasOwn(agents, chosen.to)) {
    throw new TypeError(`agentResponder: agent "${from}"'s handoff must name one of ${Object.keys(agents).join(", ")}, got ${JSON.stringify(chosen?.to ?? value)}`);
  }
  return chosen;
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
  durableSettings(options.durable, "agentResponder");
}
