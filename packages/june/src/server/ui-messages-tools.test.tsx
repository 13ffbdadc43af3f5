import { DefaultChatTransport, jsonSchema, lastAssistantMessageIsCompleteWithApprovalResponses, tool, validateUIMessages, type ModelMessage, type UIMessage } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { describe, expect, it } from "vitest";
import { listen } from "./__fixtures__/servers.js";
import { TestChat, textOf } from "./__fixtures__/test-chat.js";

/**
 * An ended turn's tool calls over `GET /sessions/:id/ui-messages`: a reloaded page shows each request a person
 * decided, by tool name, state and decision, never its input or output; `useChat` takes the messages back.
 */

const SECRET_INPUT = "sk-proj-Qw3Er5Ty7Ui9Op1As3Df5Gh7";
const SECRET_OUTPUT = "tok-output-8c1d2e3f";

function workflowChat() {
  const ran: string[] = [];
  const model = scriptedModel([
    {
      toolCalls: [
        { toolName: "deploy", input: { env: "staging", token: SECRET_INPUT } },
        { toolName: "drop_table", input: { table: "users", token: SECRET_INPUT } },
      ],
    },
    { text: "Deployed; the table stays." },
    { text: "Staging is live." },
    { text: "Nothing." },
    { text: "Nothing else to do." },
  ]);
  const deploy = tool({
    description: "Deploy to an environment",
    inputSchema: jsonSchema<{ env: string; token: string }>({ type: "object", properties: { env: { type: "string" }, token: { type: "string" } }, required: ["env", "token"] }),
    needsApproval: true,
    execute: async ({ env }) => {
      ran.push(`deploy ${env}`);
      return { message: `deployed to ${env}`, receipt: SECRET_OUTPUT };
    },
  });
  const dropTable = tool({
    description: "Drop a table",
    inputSchema: jsonSchema<{ table: string; token: string }>({ type: "object", properties: { table: { type: "string" }, token: { type: "string" } }, required: ["table", "token"] }),
    needsApproval: true,
    execute: async ({ table }) => {
      ran.push(`drop ${table}`);
      return { dropped: table };
    },
  });
  function Engineer({ messages, input }: { messages: ModelMessage[]; input: string }) {
    return (
      <Agent model={model} instructions="You ship code.">
        <Tool name="deploy" value={deploy} />
        <Tool name="drop_table" value={dropTable} />
        <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
        <Step id="reply" stream prompt={(ctx) => `Tell the user: ${String(ctx.steps.work)}`} />
      </Agent>
    );
  }
  const chat = createChat({
    responder: agentResponder({
      id: "engineer",
      render: ({ messages, input }) => <Engineer messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
  return { chat, ran };
}

type ToolPart = Extract<UIMessage["parts"][number], { type: "dynamic-tool" }>;
const toolParts = (message: UIMessage | undefined): ToolPart[] => (message?.parts ?? []).filter((part): part is ToolPart => part.type === "dynamic-tool");

describe("GET /ui-messages after a turn with approvals ended", () => {
  it("shows the approved and the denied call with their decisions and no input or output; useChat takes the messages", async () => {
    const { chat, ran } = workflowChat();
    const base = await listen(createChatHandler(chat));
    const transport = new DefaultChatTransport<UIMessage>({ api: `${base}/ui-chat` });
    const live = new TestChat({ id: "chat-tools", transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await live.sendMessage({ text: "Deploy to staging and drop the users table" });
    // The stream stops at each request the page has not seen: the page answers one, then the next.
    const asked = async (toolName: string) => {
      await expect.poll(() => toolParts(live.lastMessage).some((part) => part.toolName === toolName && part.state === "approval-requested"), { timeout: 10_000 }).toBe(true);
      return (toolParts(live.lastMessage).find((part) => part.toolName === toolName) as { approval: { id: string } }).approval.id;
    };
    const deployId = await asked("deploy");
    await live.addToolApprovalResponse({ id: deployId, approved: true });
    const dropId = await asked("drop_table");
    await live.addToolApprovalResponse({ id: dropId, approved: false, reason: "not the users table" });
    await expect.poll(() => textOf(live.lastMessage), { timeout: 10_000 }).toBe("Staging is live.");
    await expect.poll(() => live.status).toBe("ready");
    expect(ran).toEqual(["deploy staging"]);
    const session = await chat.openSession("chat-tools");
    await expect.poll(async () => (await session.turns())[0]?.status).toBe("completed");

    // The reload.
    const response = await fetch(`${base}/sessions/chat-tools/ui-messages`);
    const body = await response.text();
    const messages = JSON.parse(body) as UIMessage[];
    expect(messages).toHaveLength(2);
    expect(messages[1]!.parts).toEqual([
      { type: "dynamic-tool", toolName: "deploy", toolCallId: deployId, state: "output-available", input: {}, output: null, approval: { id: deployId, approved: true } },
      { type: "dynamic-tool", toolName: "drop_table", toolCallId: dropId, state: "output-denied", input: {}, approval: { id: dropId, approved: false, reason: "not the users table" } },
      { type: "text", text: "Staging is live.", state: "done" },
    ]);
    // Neither the tools' inputs nor their outputs.
    for (const secret of [SECRET_INPUT, SECRET_OUTPUT, '"table":"users"', "deployed to staging"]) expect(body).not.toContain(secret);

    // The AI SDK's own check of what `useChat` takes, and a chat restored from them that goes on.
    await expect(validateUIMessages({ messages })).resolves.toEqual(messages);
    const restored = new TestChat({ id: "chat-tools", transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await restored.sendMessage({ text: "Anything else?" });
    await expect.poll(() => textOf(restored.lastMessage), { timeout: 10_000 }).toBe("Nothing else to do.");
    expect(restored.error).toBeUndefined();
    expect(toolParts(restored.messages[1])).toEqual(toolParts(messages[1]));
  });
});
