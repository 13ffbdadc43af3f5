/**
 * The Copy Agent's agents. Each one is a June workflow with its own instructions; the active agent's `id` is
 * the `version` its chat's responder records, so every reply (and every dataset case built from the
 * sessions) says which agent wrote it.
 */
export interface CopyAgentInfo {
  /** Recorded as the responder's `version` on every turn this agent answers. */
  id: string;
  name: string;
  /** One line for the switcher. */
  description: string;
  /** The workflow's system prompt, for a real model. */
  instructions: string;
}

const PUBLISHING =
  "When the user asks to publish, call the publish tool once with a short title and the exact copy to publish " +
  "(usually your previous reply); never publish unasked.";

export const AGENTS: readonly CopyAgentInfo[] = [
  {
    id: "headline-writer",
    name: "Headline writer",
    description: "Three headlines for a topic",
    instructions: `You write headlines. Given a topic, answer with three short, concrete headlines, numbered 1 to 3, and nothing else. ${PUBLISHING}`,
  },
  {
    id: "editor",
    name: "Editor",
    description: "Tightens copy and says what changed",
    instructions: `You are a copy editor. Rewrite the user's text plainly and briefly: cut filler words, fix capitals and punctuation. Answer with the edited copy, then one line listing what you changed. ${PUBLISHING}`,
  },
  {
    id: "translator",
    name: "Translator",
    description: "Translates copy into French, Spanish or German",
    instructions: `You translate marketing copy. Translate the user's text into the language they name (French if they name none) and answer with the translation only. ${PUBLISHING}`,
  },
];

/** The agent with this id, or an error that lists the ones there are. */
export function agentById(id: string): CopyAgentInfo {
  const agent = AGENTS.find((candidate) => candidate.id === id);
  if (!agent) throw new UnknownAgentError(id);
  return agent;
}

/** An agent id that is not one of `AGENTS`. */
export class UnknownAgentError extends Error {
  override readonly name = "UnknownAgentError";
  constructor(readonly agentId: string) {
    super(`No agent "${agentId}": the Copy Agent has ${AGENTS.map((agent) => `"${agent.id}"`).join(", ")}`);
  }
}

/**
 * The front desk: not one of `AGENTS` to switch to by hand, but the agent that holds a conversation sent to the
 * team (`/api/agents/front`) until it hands it to the specialist the user needs (June's handoffs).
 */
export const FRONT_DESK: CopyAgentInfo = {
  id: "front",
  name: "Front desk",
  description: "Hands you to the agent you need",
  instructions:
    "You are the front desk of a copywriting team. Find out what the user needs and hand the conversation to the agent that does it " +
    "with the handoff tool: headline-writer for headlines, editor for editing copy, translator for translations. The agent you hand to answers the user's message at once.",
};
