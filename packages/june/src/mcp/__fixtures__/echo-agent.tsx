/**
 * An e2e fixture: a module exporting a Chat (made with createChat, its own memory store) whose agent has no tools
 * of its own. Its scripted model calls `echo` with the input, then answers with what the tool returned, so
 * `june ask echo-agent.tsx --mcp "node stdio-server.mjs"` shows that --mcp reached the module's agents.
 */
import { Agent, Step } from "june";
import { agentResponder, createChat } from "june/chat";
import { echoModel } from "./echo-model.js";

const model = echoModel();

export default createChat({
  responder: agentResponder({
    render: ({ messages, input }) => (
      <Agent model={model}>
        <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
  }),
});
