import { jsonSchema, tool } from "ai";
import { createElement, type JuneElement } from "../../../jsx/element.js";
import { Tool } from "../../../runtime/components.js";
import { streamSafe } from "../../../runtime/streamed-step.js";
import { endsStep } from "../../../runtime/step-ending-tool.js";
import type { TeamAgent } from "./agent-team.js";

/** The name of the tool an agent's model hands the conversation on with (`render`'s `handoff`). */
export const HANDOFF_TOOL = "handoff";

/**
 * The `<Tool name="handoff">` of agent `from`: its model names another agent and says why. None when it is alone.
 * `sameTurn`: the new agent answers the message now, so the call ends the step (no further model call) and any
 * agent it names is recorded (the team refuses one that is not there, naming the chain). Otherwise the new agent
 * answers from the next message on, and an unknown agent is the call's error, for the model to correct.
 */
export function handoffTool(agents: Record<string, TeamAgent>, from: string, sameTurn: boolean, onHandoff: (to: string, reason: string | undefined) => void): JuneElement | undefined {
  const others = Object.keys(agents).filter((id) => id !== from);
  if (others.length === 0) return undefined;
  const listed = others.map((id) => (agents[id]!.description ? `${id} (${agents[id]!.description})` : id)).join("; ");
  const when = sameTurn ? "who answers the user's message now, in your place" : "who answers the user from the next message on";
  // June's own: a streamed step may call it (it only names the next agent).
  const value = streamSafe(tool({
    description: `Hand the conversation to another agent, ${when}. Agents: ${listed}.`,
    inputSchema: jsonSchema<{ agent: string; reason: string }>({
      type: "object",
      properties: { agent: { type: "string", enum: others }, reason: { type: "string", description: "Why this agent should take over" } },
      required: ["agent", "reason"],
      additionalProperties: false,
    }),
    execute: async ({ agent, reason }) => {
      const to = String(agent);
      if (!sameTurn && !others.includes(to)) throw new TypeError(`handoff: unknown agent ${JSON.stringify(agent)}; the agents are ${others.join(", ")}`);
      onHandoff(to, typeof reason === "string" ? reason : undefined);
      return sameTurn ? `Handed off to ${to}, who answers now.` : `Handed off to ${to}: from the user's next message on, ${to} answers.`;
    },
  }));
  return createElement(Tool, { name: HANDOFF_TOOL, value: sameTurn ? endsStep(value) : value });
}
