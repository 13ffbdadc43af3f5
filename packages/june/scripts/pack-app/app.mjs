// An app that installed the packed June beside its own `ai` and `@ai-sdk/openai` (see src/ai-sdk/pack.e2e.test.ts).
// Plain ESM, no build: what a new user's `index.mjs` would be. Prints one JSON line with what it saw; throws on
// anything unexpected. Runs with the app's folder as its working directory.
import { createRequire } from "node:module";
import { DefaultChatTransport, jsonSchema, readUIMessageStream, tool } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, memoryStore } from "june/chat";
import { jsx } from "june/jsx-runtime";
import { createChatHandler } from "june/server";
import { createFakeOpenAIServer } from "june/testing";

const require = createRequire(import.meta.url);
const report = {};
const check = (ok, what) => {
  if (!ok) throw new Error(`pack app: ${what}`);
};

// The `ai` June loads is the app's own.
const juneAi = createRequire(require.resolve("june")).resolve("ai");
report.aiVersion = require("ai/package.json").version;
report.sameAi = juneAi === require.resolve("ai");

const server = await createFakeOpenAIServer({
  script: [
    // 1. The model chat's turn.
    { text: ["Hello ", "from a v4 model."] },
    // 2–3. The agent turn's "work" step: a tool call that needs approval, then the answer once it ran.
    { toolCalls: [{ toolName: "deploy", input: { env: "staging" } }] },
    "Deployed to staging.",
    // 4. Its streamed "reply" step tells the user (a streamed step calls no tools of the workflow's).
    { text: ["Deployed ", "to staging."] },
    // 5. /ui-chat.
    { text: ["Streamed ", "through /ui-chat."] },
  ],
});
try {
  const openai = createOpenAI({ baseURL: server.url, apiKey: "sk-test" });
  const model = openai("gpt-5-mini");
  report.specificationVersion = model.specificationVersion;

  // A model chat turn.
  const modelChat = createChat({ model, instructions: "Be brief.", store: memoryStore() });
  const session = await modelChat.createSession();
  const turn = session.send("Say hello.");
  let streamed = "";
  for await (const event of turn) if (event.type === "text-delta") streamed += event.text;
  const modelReply = (await turn.result).text;
  check(modelReply === "Hello from a v4 model." && streamed === modelReply, `model chat replied ${JSON.stringify(modelReply)}, streamed ${JSON.stringify(streamed)}`);
  report.modelReply = modelReply;

  // An agent turn with an AI SDK 7 tool that needs approval.
  let runs = 0;
  const deploy = tool({
    description: "Deploy",
    inputSchema: jsonSchema({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    needsApproval: true,
    execute: async ({ env }) => {
      runs++;
      return `deployed to ${env}`;
    },
  });
  const agentChat = createChat({
    store: memoryStore(),
    responder: agentResponder({
      render: ({ messages, input }) =>
        jsx(Agent, {
          model,
          children: [
            jsx(Tool, { name: "deploy", value: deploy }),
            jsx(Step, { id: "work", prompt: [...messages, { role: "user", content: input }] }),
            jsx(Step, { id: "reply", stream: true, prompt: (ctx) => [{ role: "user", content: `Tell the user: ${String(ctx.steps.work)}` }] }),
          ],
        }),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
  const agentTurn = (await agentChat.createSession()).send("Deploy to staging.");
  let asked = 0;
  for await (const event of agentTurn) {
    if (event.type !== "approval-request") continue;
    asked++;
    agentTurn.approve(event.request.id);
  }
  const agentReply = (await agentTurn.result).text;
  check(asked === 1 && runs === 1 && agentReply === "Deployed to staging.", `agent turn asked ${asked}, ran the tool ${runs}, replied ${JSON.stringify(agentReply)}`);
  Object.assign(report, { asked, runs, agentReply });

  // /ui-chat, read by the app's AI SDK.
  const handler = createChatHandler(createChat({ model, store: memoryStore() }));
  const transport = new DefaultChatTransport({ api: "http://june.test/ui-chat", fetch: (url, init) => handler(new Request(url, init)) });
  const stream = await transport.sendMessages({
    chatId: "ui-1",
    messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  let message;
  for await (const state of readUIMessageStream({ stream })) message = state;
  const uiReply = (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
  check(uiReply === "Streamed through /ui-chat.", `/ui-chat's message read ${JSON.stringify(uiReply)}`);
  report.uiReply = uiReply;
} finally {
  await server.close();
}
console.log(JSON.stringify(report));
