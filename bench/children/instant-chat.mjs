/** instant-chat.tsx as plain JavaScript: `june ask` with no TypeScript to transform. */
import { Agent, Step } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { scriptedModel } from "june/testing";

const model = scriptedModel(() => ({ text: Array.from({ length: 60 }, (_, i) => `word${i} `) }));

export default createChat({
  responder: agentResponder({
    render: ({ messages, input }) =>
      jsx(Agent, { model, children: jsx(Step, { id: "reply", stream: true, prompt: [...messages, { role: "user", content: input }] }) }),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  }),
  store: fileStore(".june/chat"),
});
