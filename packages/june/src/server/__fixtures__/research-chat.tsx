// A workflow chat for the `/ui-chat` trace tests: a research step (with a `lookup` tool), then the streamed reply.
import type { LanguageModel, Tool as AiTool } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, type Chat } from "june/chat";
import type { Guardrails } from "../../guardrails/types.js";

export function researchChat(options: { model: LanguageModel; lookup: AiTool; guardrails?: Guardrails }): Chat {
  const { model, lookup } = options;
  return createChat({
    ...(options.guardrails && { guardrails: options.guardrails }),
    responder: agentResponder({
      id: "researcher",
      version: "1",
      render: ({ input }) => (
        <Agent model={model}>
          <Tool name="lookup" value={lookup} />
          <Step id="research" prompt={`Research: ${input}`} />
          <Step id="reply" stream prompt={(ctx) => `Answer from: ${String(ctx.steps.research)}`} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
}
