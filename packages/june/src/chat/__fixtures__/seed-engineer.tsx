// The seed's "Chat with a June agent" block (shared/seed/responders.md), copied byte for byte. Its test
// (../seed-agent.test.tsx) swaps the model behind `openai(...)` for a scripted one with vi.mock and runs it
// in a temporary working directory, so `.june/chat` lands there.

import { openai } from "june/sdk/openai";
import { tool, jsonSchema, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, fileStore } from "june/chat";

const deploy = tool({
  description: "Deploy to an environment",
  inputSchema: jsonSchema<{ env: string }>({
    type: "object",
    properties: { env: { type: "string" } },
    required: ["env"],
  }),
  needsApproval: true,
  execute: async ({ env }) => `deployed to ${env}`,
});

function Engineer({
  messages,
  input,
}: {
  messages: ModelMessage[];
  input: string;
}) {
  return (
    <Agent model={openai("gpt-5-mini")} instructions="You ship code.">
      <Tool name="deploy" value={deploy} />
      <Step
        id="reply"
        prompt={[...messages, { role: "user", content: input }]}
      />
    </Agent>
  );
}

export default createChat({
  responder: agentResponder({
    id: "engineer",
    version: "1",
    render: ({ messages, input }) => (
      <Engineer messages={messages} input={input} />
    ),
    reply: (result) => String(result.steps.reply),
  }),
  store: fileStore(".june/chat"),
});
