import type { LanguageModel, ModelMessage } from "ai";
import { Agent, Step, Tool, type JuneElement } from "june";
import type { CopyAgentInfo } from "./agents.js";
import { publishTool, type PublicationLog } from "./publish.js";

/**
 * The reply step's request. It opens the prompt that hands the draft to the reply step, which a real model
 * reads as an instruction and the offline model recognizes (what follows `DRAFT_MARK` is the draft).
 */
export const REPLY_REQUEST = "Give the user your answer now, in final form, with no preamble.";
export const DRAFT_MARK = "Your draft:";

export interface CopyWorkflowProps {
  agent: CopyAgentInfo;
  model: LanguageModel;
  /** The conversation so far, every agent's replies included. */
  messages: ModelMessage[];
  input: string;
  publications: PublicationLog;
  /** In the team (`/api/agents/front`): the `handoff` tool, so the agent can hand the conversation on. */
  handoff?: JuneElement;
}

/**
 * One turn of an agent: `draft` does the work (and may call `publish`, which waits for the user's
 * approval), then `reply` streams the answer from the draft. The reply step calls no tools, so what
 * streams is exactly the reply.
 */
export function CopyWorkflow({ agent, model, messages, input, publications, handoff }: CopyWorkflowProps) {
  const request: ModelMessage[] = [...messages, { role: "user", content: input }];
  return (
    <Agent model={model} instructions={agent.instructions}>
      <Step id="draft" prompt={request}>
        <Tool name="publish" value={publishTool({ agent: agent.id, log: publications })} />
        {handoff}
      </Step>
      <Step
        id="reply"
        stream
        prompt={(ctx) => [...request, { role: "user", content: `${REPLY_REQUEST} ${DRAFT_MARK}\n\n${String(ctx.steps.draft)}` }]}
      />
    </Agent>
  );
}
