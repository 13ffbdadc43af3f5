/** @jsxRuntime automatic */
/** @jsxImportSource june */
/**
 * An offline June chat: no API key, no network. Its model is `scriptedModel` from `june/testing`, a
 * function of each call, so it answers any number of turns. Each turn runs a two-step workflow: `deploy`
 * calls a tool that needs approval, then `reply` streams the answer. So you see the reply stream, the
 * progress line and an approval prompt, as with a real model.
 *
 *   npm ci -w june --ignore-scripts && npm run build -w june
 *   npx june ask examples/offline.tsx "Deploy the docs to staging"
 *   npx june chat examples/offline.tsx
 *
 * The default export is a chat factory, `({ model }) => Chat`, so the very same workflow runs on a real
 * model too: `--model` passes one in place of the scripted model.
 *
 *   OPENAI_API_KEY=sk-... npx june ask examples/offline.tsx --model openai:gpt-5-mini "Deploy the docs to staging"
 *   npx june chat examples/offline.tsx --model ollama:llama3.2     # a local Ollama
 *
 * Answer `y` to run the tool, anything else to deny it; `--yes` / `--deny` answer for you, and with no
 * terminal to ask, the call is denied ("no one to approve").
 *
 * Its turns are durable (`durable: true`): while the deploy waits for your answer, the turn is kept in the
 * store, so a turn whose process was stopped (Ctrl-C twice, a crash) or that waited long enough to suspend is
 * continued later, in `june chat`, Studio or:
 *
 *   npx june resume examples/offline.tsx <session id or a prefix of it>
 */
import { jsonSchema, tool, type LanguageModel, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, fileStore, type Chat, type ChatFactoryOptions } from "june/chat";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";

const deploy = tool({
  description: "Deploy a project to an environment",
  inputSchema: jsonSchema<{ project: string; env: string }>({
    type: "object",
    properties: { project: { type: "string" }, env: { type: "string" } },
    required: ["project", "env"],
  }),
  needsApproval: true,
  execute: async ({ project, env }) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    return `${project} is live on ${env} (build 1f3c9e2, 42 files)`;
  },
});

/**
 * The reply step's question. It reads well to a real model, and it opens the prompt the scripted model
 * answers with the deploy step's report (what follows `REPORTED`).
 */
const REPORT = "Tell me, briefly, how the deployment went.";
const REPORTED = "Here is what the deploy step reported:";

type PromptMessage = ScriptCallInfo["options"]["prompt"][number];

function textOf(message: PromptMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** What the last tool call of this step came to (after the last user message): its output, or why it was denied. */
function toolOutcome(prompt: readonly PromptMessage[]): { ran: boolean; text: string } | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role === "user") return undefined;
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      if (output.type === "execution-denied") return { ran: false, text: output.reason ?? "denied" };
      if (output.type === "text" || output.type === "error-text") return { ran: true, text: output.value };
      return { ran: true, text: JSON.stringify("value" in output ? output.value : output) };
    }
  }
  return undefined;
}

function words(text: string): { text: string; delay: number }[] {
  return text.split(/(?<= )/).map((word) => ({ text: word, delay: 45 }));
}

/** The scripted engineer: plans a deploy, reports what happened, for as many turns as you like. */
function engineer({ options }: ScriptCallInfo): ScriptEntry {
  const prompt = options.prompt;
  const users = prompt.filter((message) => message.role === "user");
  const last = textOf(users.at(-1));
  if (last.startsWith(REPORT)) {
    const outcome = last.slice(last.indexOf(REPORTED) + REPORTED.length).trim();
    return { text: words(`${outcome}\n\nAnything else you want shipped?`) };
  }
  const outcome = toolOutcome(prompt);
  if (outcome) {
    return outcome.ran
      ? `Done: ${outcome.text}.`
      : `I did not deploy: the call was denied (${outcome.text}).`;
  }
  const env = /\b(staging|production|prod|preview|dev)\b/i.exec(last)?.[1]?.toLowerCase() ?? "staging";
  const project = /\bdeploy (?:the )?([\w-]+)/i.exec(last)?.[1] ?? "app";
  return { text: [{ text: `Deploying ${project} to ${env}.`, delay: 400 }], toolCalls: [{ toolName: "deploy", input: { project, env } }] };
}

/** The scripted model: the chat's model unless `--model` names another. */
const offlineModel = scriptedModel(engineer, { provider: "offline", modelId: "scripted-engineer" });

function Deployer({ model, messages, input }: { model: LanguageModel; messages: ModelMessage[]; input: string }) {
  const request: ModelMessage[] = [...messages, { role: "user", content: input }];
  return (
    <Agent model={model} instructions="You ship code. Deploy what the user asks for with the deploy tool.">
      <Step id="deploy" prompt={request}>
        <Tool name="deploy" value={deploy} />
      </Step>
      <Step
        id="reply"
        stream
        prompt={(ctx) => [...request, { role: "user", content: `${REPORT} ${REPORTED}\n\n${String(ctx.steps.deploy)}` }]}
      />
    </Agent>
  );
}

/**
 * A chat factory: `june` calls it with `{ model }` from `--model`, or with `{}`, so the scripted model is the
 * default. Sessions live in `.june/chat`, like the CLI's.
 */
export default function offlineChat({ model = offlineModel }: ChatFactoryOptions = {}): Chat {
  return createChat({
    responder: agentResponder({
      id: "offline-deployer",
      version: "1",
      durable: true,
      render: ({ messages, input }) => <Deployer model={model} messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
    store: fileStore(".june/chat"),
  });
}
