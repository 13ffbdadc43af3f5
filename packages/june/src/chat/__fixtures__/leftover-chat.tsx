// A durable agent chat for checkpoint-leftovers.test.tsx (in process and in a child process): one step whose
// model asks to run `deploy` (needs approval) with a credential in its input, then answers from its result.
import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "../../index.js";
import { agentResponder, createChat, type ChatStore, type DurableOptions } from "../index.js";
import { scriptedModel, type ScriptEntry } from "../../testing/index.js";
import { SECRET } from "./durable-chat.js";

export { SECRET };

export function leftoverChat(options: { store: ChatStore; durable?: true | DurableOptions }) {
  const model = scriptedModel(({ options: call }): ScriptEntry => {
    const prompt = call.prompt as unknown as ModelMessage[];
    const answered = prompt.some((m) => m.role === "tool");
    if (!answered) return { toolCalls: [{ toolName: "deploy", input: { env: "prod", token: SECRET }, toolCallId: "call-deploy" }] };
    return "Deployed.";
  });
  const deploy = tool({
    description: "Deploy the docs",
    inputSchema: jsonSchema<{ env: string; token: string }>({
      type: "object",
      properties: { env: { type: "string" }, token: { type: "string" } },
      required: ["env", "token"],
    }),
    needsApproval: true,
    execute: async ({ env }) => `live on ${env}`,
  });
  const responder = agentResponder({
    id: "deployer",
    version: "1",
    durable: options.durable ?? true,
    render: ({ input, messages }) => (
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Step id="deploy" prompt={[...messages, { role: "user", content: input }]} />
      </Agent>
    ),
    reply: (result) => String(result.steps.deploy),
  });
  return createChat({ store: options.store, responder });
}
