/**
 * An e2e fixture: a Responder (so the CLI keeps its sessions in --store) whose one step may call `touch`, a
 * tool that needs approval and writes the file named by JUNE_TEST_MARKER, so a test can tell whether it ran.
 */
import { writeFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder } from "june/chat";
import { openai } from "june/sdk/openai";

const touch = tool({
  description: "Writes the marker file",
  inputSchema: jsonSchema<{ note: string; apiKey?: string }>({
    type: "object",
    properties: { note: { type: "string" }, apiKey: { type: "string" } },
    required: ["note"],
  }),
  needsApproval: true,
  execute: async ({ note }) => {
    writeFileSync(process.env.JUNE_TEST_MARKER ?? "marker.txt", note);
    return `wrote ${note}`;
  },
});

export default agentResponder({
  id: "approval-fixture",
  version: "1",
  render: ({ messages, input }) => (
    <Agent model={openai("gpt-5-mini")}>
      <Tool name="touch" value={touch} />
      <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
    </Agent>
  ),
  reply: (result) => String(result.steps.work),
});
