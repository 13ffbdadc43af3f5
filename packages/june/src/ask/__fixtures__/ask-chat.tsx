// A chat whose agent asks the person a question (`<AskUser />`) and answers from it: the model is scripted from
// what it is sent (the same after a restart), and each model call is appended to a log file.
import { appendFileSync } from "node:fs";
import type { ModelMessage } from "ai";
import { Agent, AskUser, Step } from "../../index.js";
import { agentResponder, createChat, type ChatStore, type DurableOptions } from "../../chat/index.js";
import { scriptedModel, type ScriptEntry } from "../../testing/index.js";

export const QUESTION = "Which environment should I deploy to?";

export function askChat(options: { store: ChatStore; log?: string; durable?: true | DurableOptions }) {
  const log = (line: string) => {
    if (options.log) appendFileSync(options.log, `${line}\n`);
  };
  const model = scriptedModel(({ options: call }): ScriptEntry => {
    const prompt = call.prompt as unknown as ModelMessage[];
    const result = prompt
      .filter((m) => m.role === "tool")
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type === "tool-result") as { output?: { type: string; value?: unknown } } | undefined;
    if (!result) {
      log("model ask");
      return { toolCalls: [{ toolName: "ask_user", input: { question: QUESTION }, toolCallId: "call-ask" }] };
    }
    log("model answer");
    return `Deploying to ${JSON.stringify(result.output?.value)}.`;
  });
  const responder = agentResponder({
    id: "asker",
    ...(options.durable ? { durable: options.durable } : {}),
    render: ({ input }) => (
      <Agent model={model}>
        <AskUser />
        <Step id="reply" stream prompt={input} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
    stream: { step: "reply" },
  });
  return { chat: createChat({ store: options.store, responder }), model };
}
