/**
 * The offline example's shape with nothing scripted to wait: a one-step agent that streams a 60-delta reply
 * at once, journaled in a fileStore. `june ask` on it measures the CLI's own start-up (with the TS loader).
 */
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";

const model = scriptedModel(() => ({ text: Array.from({ length: 60 }, (_, i) => `word${i} `) }));

export default createChat({
  responder: agentResponder({
    render: ({ messages, input }) => (
      <Agent model={model}>
        <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  }),
  store: fileStore(".june/chat"),
});
