/**
 * A two-step workflow chat: a draft step writes an answer, then a review step rewrites it into the reply,
 * which streams as it is written. Run it with `june chat src/examples/chat/agent.tsx`
 * (OPENAI_API_KEY set); its sessions live in `.june/chat`, like the CLI's.
 */
import type { ModelMessage } from "ai";
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { openai } from "june/sdk/openai";

function DraftAndReview({ messages, input }: { messages: ModelMessage[]; input: string }) {
  return (
    <Agent model={openai("gpt-5-mini")} instructions="You are a careful, friendly assistant.">
      <Step id="draft" prompt={[...messages, { role: "user", content: input }]} />
      <Step
        id="review"
        stream
        prompt={(ctx) => [
          ...messages,
          { role: "user", content: input },
          {
            role: "user",
            content:
              "Here is a draft answer to my last message. Review it: fix mistakes, cut filler, keep it short. " +
              `Reply with the final answer only.\n\n<draft>\n${String(ctx.steps.draft)}\n</draft>`,
          },
        ]}
      />
    </Agent>
  );
}

export default createChat({
  responder: agentResponder({
    id: "draft-and-review",
    version: "1",
    render: ({ messages, input }) => <DraftAndReview messages={messages} input={input} />,
    reply: (result) => String(result.steps.review),
    stream: { step: "review" },
  }),
  store: fileStore(".june/chat"),
});
