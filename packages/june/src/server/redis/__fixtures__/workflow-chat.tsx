import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "../../../index.js";
import { agentResponder, createChat, type Chat } from "../../../chat/index.js";
import type { ChatStore } from "../../../stores/types.js";
import { scriptedModel } from "../../../testing/index.js";

/** Credentials in the tool's input and output: none may reach Redis or a response. */
export const OPENAI_KEY = "sk-proj-Zy9XwV8uT7sR6qP5oN4mL3kJ2iH1gF0e";
export const API_KEY = "plain-secret-value-42";
export const SECRETS = [OPENAI_KEY, API_KEY];

/**
 * A workflow chat (`agentResponder` running `<Agent>`/`<Step>`/`<Tool>` on a scripted model): each turn
 * calls `deploy`, a tool that needs approval and whose input carries an `apiKey`, then streams a short
 * reply with small delays. `onRun` is told each time the tool runs.
 */
export function workflowChat(store: ChatStore, onRun: (run: { env: string }) => void = () => {}): Chat {
  const model = scriptedModel(({ options }) => {
    const prompt = options.prompt;
    if (prompt.at(-1)?.role === "tool") return { text: "Deployed to staging." };
    if (JSON.stringify(prompt).includes("Tell the user")) return { text: ["Staging ", "is ", "live."], delay: 15 };
    return {
      text: [{ text: "Deploying ", delay: 10 }, { text: "now.", delay: 10 }],
      toolCalls: [{ toolName: "deploy", input: { env: "staging", apiKey: API_KEY, note: `with ${OPENAI_KEY}` } }],
    };
  });
  const deploy = tool({
    description: "Deploy to an environment",
    inputSchema: jsonSchema<{ env: string; apiKey: string; note?: string }>({
      type: "object",
      properties: { env: { type: "string" }, apiKey: { type: "string" }, note: { type: "string" } },
      required: ["env", "apiKey"],
    }),
    needsApproval: true,
    execute: async ({ env, apiKey }) => {
      onRun({ env });
      return { message: `deployed to ${env} using ${OPENAI_KEY}`, apiKey };
    },
  });
  function Engineer({ messages, input }: { messages: ModelMessage[]; input: string }) {
    return (
      <Agent model={model} instructions="You ship code.">
        <Tool name="deploy" value={deploy} />
        <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
        <Step id="reply" stream prompt={(ctx) => `Tell the user: ${String(ctx.steps.work)}`} />
      </Agent>
    );
  }
  return createChat({
    store,
    responder: agentResponder({
      id: "engineer",
      version: "1",
      render: ({ messages, input }) => <Engineer messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
}
