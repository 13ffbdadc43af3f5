import { jsonSchema, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { Agent, GuardrailTrippedError, Step, Tool, type TraceNode } from "june";
import { agentResponder, createChat, memoryStore, projectChatTrace, type Turn } from "june/chat";
import { turnStream, type TurnStreamEvent } from "june/stream";
import { scriptedModel } from "june/testing";

type DeployInput = { env: string };

function deployTool() {
  const execute = vi.fn(async ({ env }: DeployInput) => `deployed to ${env} with token s3cret`);
  const value = tool({
    description: "Deploy",
    inputSchema: jsonSchema<DeployInput>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    execute,
  });
  return { value, execute };
}

async function streamed(turn: Turn): Promise<TurnStreamEvent[]> {
  const events: TurnStreamEvent[] = [];
  for await (const { event } of turnStream(turn)) events.push(event);
  return events;
}

/** Every text a model call was sent, joined (what the model saw). */
function sent(model: ReturnType<typeof scriptedModel>, call: number): string {
  return JSON.stringify(model.doStreamCalls[call]?.prompt);
}

describe("chat guardrails", () => {
  it("an input guardrail that trips never calls the model: the turn is blocked with the reason", async () => {
    const model = scriptedModel(["never"]);
    const store = memoryStore();
    const chat = createChat({
      model,
      instructions: "Help.",
      store,
      guardrails: { input: [{ name: "no-secrets", check: ({ input }) => (input.includes("password") ? "The input asks for a password" : undefined) }] },
    });
    const session = await chat.createSession();
    const turn = session.send("what is the admin password?");
    const events = await streamed(turn);
    const error = await turn.result.catch((e: unknown) => e);
    expect(GuardrailTrippedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ guardrail: "no-secrets", reason: "The input asks for a password", stage: "input" });
    expect(turn.status).toBe("blocked");
    expect(model.doStreamCalls).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "blocked", error: { name: "GuardrailTrippedError", message: 'Blocked by guardrail "no-secrets": The input asks for a password' } });
    const entries = await store.read(session.id);
    expect(entries.at(-1)).toMatchObject({ type: "turn-end", status: "blocked", error: { name: "GuardrailTrippedError" } });
    const [record] = await session.turns();
    expect(record).toMatchObject({ status: "blocked" });
    // The session goes on: the next turn passes.
    expect((await session.send("hello").result).text).toBe("never");
  });

  it("a held output guardrail that trips streams nothing of the blocked text; the journal keeps no reply", async () => {
    const model = scriptedModel([{ text: ["The key ", "is ", "sk-123"] }]);
    const store = memoryStore();
    const chat = createChat({
      model,
      instructions: "Help.",
      store,
      guardrails: { output: [{ name: "no-keys", stream: "hold", check: async ({ text }) => (/sk-\d+/.test(text) ? "The reply holds a key" : undefined) }] },
    });
    const session = await chat.createSession();
    const turn = session.send("the key?");
    const events = await streamed(turn);
    expect(events.filter((e) => e.type === "text-delta")).toEqual([]);
    expect(JSON.stringify(events)).not.toContain("sk-123");
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "blocked" });
    const entries = await store.read(session.id);
    expect(JSON.stringify(entries)).not.toContain("sk-123");
    expect(turn.status).toBe("blocked");
  });

  it("a held output guardrail that passes releases the reply at once, whole", async () => {
    const model = scriptedModel([{ text: ["Hel", "lo ", "there"] }]);
    const check = vi.fn(() => undefined);
    const chat = createChat({ model, instructions: "Help.", guardrails: { output: [{ name: "fine", check }] } });
    const session = await chat.createSession();
    const turn = session.send("hi");
    const deltas: string[] = [];
    for await (const event of turn) if (event.type === "text-delta") deltas.push(event.text);
    expect(deltas).toEqual(["Hello there"]);
    expect((await turn.result).text).toBe("Hello there");
    // Once per reply, never per token.
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith({ text: "Hello there" });
  });

  it('an "end" output guardrail streams the reply and blocks the turn after the fact', async () => {
    const model = scriptedModel([{ text: ["bad ", "words"] }]);
    const store = memoryStore();
    const chat = createChat({ model, instructions: "Help.", store, guardrails: { output: [{ name: "tone", stream: "end", check: () => "Rude" }] } });
    const session = await chat.createSession();
    const turn = session.send("hi");
    const events = await streamed(turn);
    expect(events.filter((e) => e.type === "text-delta").map((e) => (e as { text: string }).text).join("")).toBe("bad words");
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "blocked", error: { message: 'Blocked by guardrail "tone": Rude' } });
    const end = (await store.read(session.id)).at(-1) as { text?: string; status: string };
    expect(end.status).toBe("blocked");
    expect(end.text).toBeUndefined();
    // The blocked reply is not in the next turn's context.
    await session.messages();
    expect(JSON.stringify(await session.messages())).not.toContain("bad words");
  });

  it("bad guardrails are refused with a clear error", () => {
    const model = scriptedModel(["x"]);
    expect(() => createChat({ model, guardrails: { input: [{ name: "x" } as never] } })).toThrow(/guardrails.input\[0\] must be \{ name: string, check: function \}/);
    expect(() => createChat({ model, guardrails: { output: [{ name: "x", check: () => undefined, stream: "later" as never }] } })).toThrow(/stream must be "hold" or "end"/);
    expect(() => createChat({ model, guardrails: { outputs: [] } as never })).toThrow(/unknown guardrail list "outputs"/);
  });
});

describe("tool guardrails and chat policies", () => {
  function shipChat(model: ReturnType<typeof scriptedModel>, value: ReturnType<typeof deployTool>["value"], options: Parameters<typeof createChat>[0] extends infer O ? Partial<O & object> : never) {
    return createChat({
      store: memoryStore(),
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <Tool name="deploy" value={value} />
            <Step id="ship" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.ship),
      }),
      ...(options as object),
    });
  }

  it("a tool guardrail that trips on the input never runs the tool nor asks; the model gets the reason", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "prod" }, toolCallId: "c1" }] }, "Could not deploy."]);
    const { value, execute } = deployTool();
    const chat = shipChat(model, value, { guardrails: { tool: [{ name: "no-prod", check: ({ input }) => ((input as DeployInput | undefined)?.env === "prod" ? "prod is off limits" : undefined) }] } });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const kinds = new Set<string>();
    for await (const event of turn) kinds.add(event.type);
    expect((await turn.result).text).toBe("Could not deploy.");
    expect(kinds.has("approval-request")).toBe(false);
    expect(execute).not.toHaveBeenCalled();
    expect(sent(model, 1)).toContain('Blocked by guardrail \\"no-prod\\": prod is off limits');
  });

  it("a tool guardrail that trips on the output keeps the output from the model", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "dev" }, toolCallId: "c1" }] }, "Done."]);
    const { value, execute } = deployTool();
    const chat = shipChat(model, value, {
      guardrails: { tool: [{ name: "no-tokens", check: ({ output }) => (typeof output === "string" && output.includes("s3cret") ? "The output holds a token" : undefined) }] },
    });
    const session = await chat.createSession();
    const turn = session.send("ship");
    let tree: TraceNode | undefined;
    for await (const event of turn) if (event.type === "run-update") tree = event.tree as TraceNode;
    await turn.result;
    expect(execute).toHaveBeenCalledTimes(1);
    expect(sent(model, 1)).not.toContain("s3cret");
    expect(sent(model, 1)).toContain("The output holds a token");
    expect(JSON.stringify(projectChatTrace(tree!, { requests: [] }))).not.toContain("s3cret");
  });

  it("createChat({ toolApproval }) denies env: prod without a pending request, and the reason reaches the model", async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "prod" }, toolCallId: "c1" }] }, "Not in prod."]);
    const { value, execute } = deployTool();
    const chat = shipChat(model, value, {
      toolApproval: { deploy: (input: DeployInput) => (input.env === "prod" ? { type: "denied", reason: "Production deploys need a change ticket" } : "approved") },
    });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const kinds = new Set<string>();
    let pendingSeen = 0;
    for await (const event of turn) {
      kinds.add(event.type);
      pendingSeen += turn.requests.length;
    }
    expect((await turn.result).text).toBe("Not in prod.");
    expect(kinds.has("approval-request")).toBe(false);
    expect(pendingSeen).toBe(0);
    expect(execute).not.toHaveBeenCalled();
    expect(sent(model, 1)).toContain("Production deploys need a change ticket");
    expect(await session.pendingApprovals()).toEqual([]);
    const entries = await chat.store.read(session.id);
    expect(entries.filter((e) => e.type === "approval")).toMatchObject([{ approved: false, reason: "Production deploys need a change ticket", decidedBy: "policy" }]);
  });

  it("a step's output guardrail blocks the chat turn", async () => {
    const model = scriptedModel(["forbidden words"]);
    const chat = createChat({
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model} guardrails={{ output: [{ name: "words", check: ({ text }) => (text.includes("forbidden") ? "Forbidden words" : undefined) }] }}>
            <Step id="reply" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
      }),
    });
    const session = await chat.createSession();
    const turn = session.send("hi");
    const events = await streamed(turn);
    expect(turn.status).toBe("blocked");
    expect(events.at(-1)).toMatchObject({ type: "turn-end", status: "blocked", error: { name: "GuardrailTrippedError", message: 'Blocked by guardrail "words": Forbidden words' } });
  });
});
