// A steer and an answer to a question are user input: the chat's input guardrails (and, for an answer, its
// tool guardrails, as the `ask_user` tool's output) check them before the model sees them.
import { jsonSchema, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { Agent, AskUser, GuardrailTrippedError, Step, Tool, type Guardrails } from "june";
import { agentResponder, createChat, memoryStore, type Turn } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel, type ScriptEntry } from "june/testing";
import { listen, post } from "../server/__fixtures__/servers.js";
import { sseEvents } from "../server/__fixtures__/sse-client.js";

const BLOCKED = "the password is hunter2";
const noPasswords: Guardrails = { input: [{ name: "no-passwords", check: ({ input }) => (input.includes("password") ? "The input holds a password" : undefined) }] };

/** Everything the model was sent, over all its calls. */
const sentAll = (model: ReturnType<typeof scriptedModel>) => JSON.stringify(model.doStreamCalls.map((call) => call.prompt));

function askChat(guardrails: Guardrails) {
  const model = scriptedModel(({ options }): ScriptEntry => {
    const prompt = options.prompt as unknown as ModelMessage[];
    const answered = prompt.some((m) => m.role === "tool");
    return answered ? "Deploying." : { toolCalls: [{ toolName: "ask_user", input: { question: "Where to?" }, toolCallId: "call-ask" }] };
  });
  const chat = createChat({
    store: memoryStore(),
    guardrails,
    responder: agentResponder({
      render: ({ input }) => (
        <Agent model={model}>
          <AskUser />
          <Step id="reply" prompt={input} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
    }),
  });
  return { chat, model };
}

async function questionOf(turn: Turn): Promise<string> {
  for await (const event of turn) if (event.type === "input-request") return event.request.id;
  throw new Error("no question asked");
}

function approvalChat() {
  const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "staging" }, toolCallId: "c1" }] }, "Deployed."]);
  const deploy = tool({ description: "Deploy", inputSchema: jsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } } }), needsApproval: true, execute: async () => "ok" });
  const chat = createChat({
    store: memoryStore(),
    guardrails: noPasswords,
    responder: agentResponder({
      render: ({ input }) => (
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="reply" prompt={input} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
    }),
  });
  return { chat, model };
}

describe("steers and answers pass the chat's guardrails", () => {
  it("a steer the input guardrails refuse is a GuardrailTrippedError, never journaled nor sent to the model", async () => {
    const { chat, model } = approvalChat();
    const session = await chat.createSession();
    const turn = session.send("ship");
    for await (const event of turn) {
      if (event.type !== "approval-request") continue;
      const error = await turn.steer(BLOCKED).catch((e: unknown) => e);
      expect(GuardrailTrippedError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ guardrail: "no-passwords", stage: "input" });
      await turn.steer("use the blue pipeline");
      turn.approve(event.request.id);
    }
    expect((await turn.result).text).toBe("Deployed.");
    expect(sentAll(model)).not.toContain("hunter2");
    expect(sentAll(model)).toContain("blue pipeline");
    const steers = (await chat.store.read(session.id)).filter((e) => e.type === "steer");
    expect(steers).toMatchObject([{ input: "use the blue pipeline" }]);
  });

  it("an answer the input guardrails refuse throws through turn.control and the question stays pending; a good one goes on", async () => {
    const { chat, model } = askChat(noPasswords);
    const session = await chat.createSession();
    const turn = session.send("ship");
    const id = await questionOf(turn);
    const error = await turn.control({ type: "answer", requestId: id, value: BLOCKED }).catch((e: unknown) => e);
    expect(GuardrailTrippedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ guardrail: "no-passwords", stage: "input" });
    expect(turn.requests.map((r) => r.id)).toEqual([id]);
    // A JSON answer is checked as its JSON text.
    await expect(turn.control({ type: "answer", requestId: id, value: { note: "password: x" } })).rejects.toMatchObject({ stage: "input" });
    await turn.control({ type: "answer", requestId: id, value: "staging" });
    expect((await turn.result).text).toBe("Deploying.");
    expect(sentAll(model)).not.toContain("hunter2");
    expect(sentAll(model)).toContain("staging");
  });

  it("turn.answer (at once) with a refused answer ends the turn blocked; the model never sees it", async () => {
    const { chat, model } = askChat(noPasswords);
    const session = await chat.createSession();
    const turn = session.send("ship");
    const id = await questionOf(turn);
    expect(turn.answer(id, BLOCKED)).toBe(true);
    const error = await turn.result.catch((e: unknown) => e);
    expect(GuardrailTrippedError.isInstance(error)).toBe(true);
    expect(turn.status).toBe("blocked");
    expect(model.doStreamCalls).toHaveLength(1);
    expect(sentAll(model)).not.toContain("hunter2");
  });

  it("the tool guardrails check an answer as the ask_user tool's output", async () => {
    const { chat, model } = askChat({ tool: [{ name: "no-prod", check: ({ toolName, output }) => (toolName === "ask_user" && output === "prod" ? "No prod" : undefined) }] });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const id = await questionOf(turn);
    await expect(turn.control({ type: "answer", requestId: id, value: "prod" })).rejects.toMatchObject({ guardrail: "no-prod", stage: "tool-output", toolName: "ask_user" });
    await turn.control({ type: "answer", requestId: id, value: "staging" });
    expect((await turn.result).text).toBe("Deploying.");
    expect(sentAll(model)).not.toContain('"prod"');
  });

  it("over HTTP: a refused answer (route and /ui-chat) and steer are a 422 GuardrailTrippedError; the question stays and a good answer goes on", async () => {
    const { chat, model } = askChat(noPasswords);
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession();
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "ship" });
    let turnId = "";
    let end: unknown;
    for await (const event of sseEvents(response)) {
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event === "input-request") {
        const requestId = event.data.request.id;
        const refused = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId, value: BLOCKED });
        expect(refused.status).toBe(422);
        expect(await refused.json()).toEqual({ name: "GuardrailTrippedError", error: 'Blocked by guardrail "no-passwords": The input holds a password' });
        const steer = await post(`${base}/sessions/${session.id}/turns/${turnId}/steer`, { input: BLOCKED });
        expect(steer.status).toBe(422);
        await steer.text();
        const ui = await post(`${base}/ui-chat`, {
          id: session.id,
          trigger: "submit-message",
          messages: [
            { id: "u1", role: "user", parts: [{ type: "text", text: "ship" }] },
            { id: turnId, role: "assistant", parts: [{ type: "tool-ask_user", toolCallId: requestId, state: "output-available", input: { question: "Where to?" }, output: BLOCKED }] },
          ],
        });
        expect(ui.status).toBe(422);
        expect(await ui.text()).toContain("GuardrailTrippedError");
        const ok = await post(`${base}/sessions/${session.id}/turns/${turnId}/answer`, { requestId, value: "staging" });
        expect(ok.status).toBe(200);
        await ok.text();
      }
      if (event.event === "turn-end") end = event.data;
    }
    expect(end).toMatchObject({ status: "completed", text: "Deploying." });
    expect(sentAll(model)).not.toContain("hunter2");
  });
});
