import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonSchema, tool } from "ai";
import { Agent, AskUser, Step, Tool } from "june";
import { agentResponder, createChat, fileStore, memoryStore, projectChatTrace, type ChatStore } from "june/chat";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";
import { decodeCheckpoint } from "../../durable/checkpoint-codec.js";
import type { ResponderTraceNode } from "../../trace/responder-trace.js";
import { HandoffError } from "../../../errors/handoff-error.js";
import type { TeamAgent } from "./agent-team.js";

const root = mkdtempSync(join(tmpdir(), "june-handoff-chain-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What the model was sent last by the user. */
function lastUser(call: ScriptCallInfo): string {
  const user = [...call.options.prompt].reverse().find((message) => message.role === "user");
  if (!user || typeof user.content === "string") return String(user?.content ?? "");
  return user.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const handoffTo = (agent: string, reason = `over to ${agent}`): ScriptEntry => ({ toolCalls: [{ toolName: "handoff", input: { agent, reason } }] });

/** An agent of one step, with the handoff tool, answering with `model`. */
function simple(model: ReturnType<typeof scriptedModel>, extra: Partial<TeamAgent> = {}): TeamAgent {
  return {
    render: ({ input, messages, handoff }) => (
      <Agent model={model}>
        {handoff}
        <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
    ...extra,
  };
}

/** A tool that needs approval and records what it published. */
function publishTool(published: string[]) {
  return tool({
    description: "Publish copy",
    inputSchema: jsonSchema<{ copy: string }>({ type: "object", properties: { copy: { type: "string" } }, required: ["copy"] }),
    needsApproval: true,
    execute: async ({ copy }) => {
      published.push(copy);
      return "published";
    },
  });
}

function flatten(node: ResponderTraceNode): ResponderTraceNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

describe("agentResponder({ agents }): a handoff answers in the same turn", () => {
  it("the front agent's model hands off: the editor answers the same input, the turn records both, the next turn stays with the editor", async () => {
    const frontInputs: string[] = [];
    const editorInputs: string[] = [];
    const front = scriptedModel((call) => {
      frontInputs.push(lastUser(call));
      return { ...(handoffTo("editor", "The user wants a headline edited") as object), usage: { inputTokens: 7, outputTokens: 1 } };
    }, { modelId: "front" });
    const editor = scriptedModel((call) => {
      editorInputs.push(lastUser(call));
      return { text: `Editor: ${lastUser(call)}`, usage: { inputTokens: 10, outputTokens: 5 } };
    }, { modelId: "editor" });
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({ start: "front", agents: { front: simple(front, { version: "1" }), editor: simple(editor, { version: "2" }) } }),
    });
    const session = await chat.createSession();
    const turn = session.send("Can you fix my headline?");
    const trees: ResponderTraceNode[] = [];
    for await (const event of turn) if (event.type === "run-update") trees.push(event.tree);
    const first = await turn.result;

    expect(first.text).toBe("Editor: Can you fix my headline?");
    expect(first.metadata.agent).toEqual({ id: "editor", version: "2" });
    expect(first.metadata.handoff).toEqual({ from: "front", to: "editor", reason: "The user wants a headline edited" });
    expect(editorInputs).toEqual(["Can you fix my headline?"]);
    // The handoff ended the front agent's step: its model was asked once, not again after the call.
    expect(front.callCount).toBe(1);
    // Both runs' usage counts; the model is left out (two models answered).
    expect(first.metadata.usage).toMatchObject({ inputTokens: 17, outputTokens: 6 });
    expect(frontInputs).toEqual(["Can you fix my headline?"]);
    expect(first.metadata.model).toBeUndefined();

    // The trace: the front agent's run (with the handoff call), then the editor's, under one group.
    const last = trees.at(-1)!;
    expect(last).toMatchObject({ kind: "group", status: "done" });
    expect(last.children.map((child) => child.kind)).toEqual(["run", "run"]);
    const ids = flatten(last).map((node) => node.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rows = projectChatTrace(last as never);
    expect(rows.map((row) => row.kind === "step" && row.stepId)).toEqual(["reply", "reply"]);
    expect(rows[0]!.children.some((row) => row.kind === "tool" && row.toolName === "handoff" && row.status === "done")).toBe(true);
    expect(rows[1]!.children.some((row) => row.kind === "model" && row.model.modelId === "editor")).toBe(true);

    const second = await session.send("Launch day is here").result;
    expect(second.metadata.agent).toEqual({ id: "editor", version: "2" });
    expect(second.metadata.handoff).toBeUndefined();
    expect(editorInputs).toEqual(["Can you fix my headline?", "Launch day is here"]);
    expect(front.callCount).toBe(1);
    expect((await session.turns()).map((t) => [t.metadata?.agent?.id, t.text])).toEqual([
      ["editor", "Editor: Can you fix my headline?"],
      ["editor", "Editor: Launch day is here"],
    ]);
  });

  it("text a streamed step wrote before handing off stays in the reply, then a paragraph break and the new agent's reply: the deltas add up to the text", async () => {
    const front = scriptedModel([{ text: ["Let me ", "find the editor."].map((text) => ({ text })), toolCalls: [{ toolName: "handoff", input: { agent: "editor", reason: "editing" } }] }]);
    const editor = scriptedModel([{ text: [{ text: "Editor " }, { text: "here." }] }, "Not streamed."]);
    const streamed = (model: ReturnType<typeof scriptedModel>): TeamAgent => ({
      render: ({ input, handoff }) => (
        <Agent model={model}>
          {handoff}
          <Step id="reply" stream prompt={input} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    });
    const chat = createChat({ store: memoryStore(), responder: agentResponder({ start: "front", agents: { front: streamed(front), editor: streamed(editor) } }) });
    const session = await chat.createSession();
    const turn = session.send("Edit this");
    let deltas = "";
    for await (const event of turn) if (event.type === "text-delta") deltas += event.text;
    const result = await turn.result;
    expect(result.text).toBe("Let me find the editor.\n\nEditor here.");
    expect(deltas).toBe(result.text);
    expect((await session.turns())[0]!.text).toBe(result.text);

    // The new agent without `stream`: its reply arrives as one delta after the earlier agent's text.
    const front2 = scriptedModel([{ text: "One moment.", toolCalls: [{ toolName: "handoff", input: { agent: "editor", reason: "editing" } }] }]);
    const editor2 = scriptedModel(["Done."]);
    const chat2 = createChat({ store: memoryStore(), responder: agentResponder({ start: "front", agents: { front: streamed(front2), editor: simple(editor2) } }) });
    const turn2 = (await chat2.createSession()).send("Edit this");
    let deltas2 = "";
    for await (const event of turn2) if (event.type === "text-delta") deltas2 += event.text;
    expect((await turn2.result).text).toBe("One moment.\n\nDone.");
    expect(deltas2).toBe("One moment.\n\nDone.");
  });

  it("handed on more than once: metadata.handoff lists each handoff, and the last agent answers", async () => {
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        start: "front",
        agents: {
          front: simple(scriptedModel([handoffTo("editor")])),
          editor: simple(scriptedModel([handoffTo("translator", "it is in French")])),
          translator: simple(scriptedModel(["Traduit.", "De rien."])),
        },
      }),
    });
    const session = await chat.createSession();
    const result = await session.send("Fix and translate").result;
    expect(result.text).toBe("Traduit.");
    expect(result.metadata.agent).toEqual({ id: "translator" });
    expect(result.metadata.handoff).toEqual([
      { from: "front", to: "editor", reason: "over to editor" },
      { from: "editor", to: "translator", reason: "it is in French" },
    ]);
    expect((await session.turns())[0]!.metadata?.handoff).toEqual(result.metadata.handoff);
    // The journal's last `to` holds the conversation.
    const next = await session.send("Merci").result;
    expect([next.text, next.metadata.agent?.id, next.metadata.handoff]).toEqual(["De rien.", "translator", undefined]);
  });

  it("bounded: a loop back, an unknown agent and past maxHandoffs fail the turn with a HandoffError naming the chain, before another model call", async () => {
    // Ping-pong: the editor hands straight back to the front desk.
    const front = scriptedModel([handoffTo("editor")]);
    const editor = scriptedModel([handoffTo("front")]);
    const pingPong = createChat({ store: memoryStore(), responder: agentResponder({ start: "front", agents: { front: simple(front), editor: simple(editor) } }) });
    const loop = await (await pingPong.createSession()).send("Hi").result.catch((error: unknown) => error);
    expect(HandoffError.isInstance(loop)).toBe(true);
    expect(loop).toMatchObject({ problem: "loop", chain: ["front", "editor", "front"] });
    expect((loop as Error).message).toBe('agentResponder: the handoff front -> editor -> front was refused: "front" already answered this turn (a loop)');
    expect([front.callCount, editor.callCount]).toEqual([1, 1]);

    // The model names an agent that is not there.
    const unknown = createChat({
      store: memoryStore(),
      responder: agentResponder({ start: "front", agents: { front: simple(scriptedModel([handoffTo("legal")])), editor: simple(scriptedModel([])) } }),
    });
    const missing = await (await unknown.createSession()).send("Hi").result.catch((error: unknown) => error);
    expect(missing).toMatchObject({ name: "HandoffError", problem: "unknown", chain: ["front", "legal"] });
    expect((missing as Error).message).toMatch(/front -> legal was refused: there is no agent "legal" \(the agents are front, editor\)/);

    // Code hands off to itself.
    const self = createChat({
      store: memoryStore(),
      responder: agentResponder({ start: "front", agents: { front: simple(scriptedModel(["Hi."]), { handoff: () => "front" }), editor: simple(scriptedModel([])) } }),
    });
    expect(await (await self.createSession()).send("Hi").result.catch((error: unknown) => error)).toMatchObject({ problem: "itself", chain: ["front", "front"] });

    // Past maxHandoffs: one allowed, the second refused before the translator's model is asked.
    const translator = scriptedModel(["Traduit."]);
    const limited = createChat({
      store: memoryStore(),
      responder: agentResponder({
        start: "front",
        maxHandoffs: 1,
        agents: { front: simple(scriptedModel([handoffTo("editor")])), editor: simple(scriptedModel([handoffTo("translator")])), translator: simple(translator) },
      }),
    });
    const limit = await (await limited.createSession()).send("Hi").result.catch((error: unknown) => error);
    expect(limit).toMatchObject({ problem: "limit", chain: ["front", "editor", "translator"], maxHandoffs: 1 });
    expect((limit as Error).message).toMatch(/at most 1 time \(maxHandoffs\)/);
    expect(translator.callCount).toBe(0);
    expect(() => agentResponder({ start: "a", maxHandoffs: 0, agents: { a: simple(scriptedModel([])) } })).toThrow(/`maxHandoffs` must be a whole number, 1 or more, got 0/);
    expect(() => agentResponder({ start: "a", handoff: "later" as never, agents: { a: simple(scriptedModel([])) } })).toThrow(/`handoff` must be "same-turn" or "next-turn"/);
  });

  it("an approval and a question of the new agent are the turn's: approved, the tool runs once and the editor answers", async () => {
    const published: string[] = [];
    const publish = publishTool(published);
    const editor = scriptedModel((call) => {
      const prompt = JSON.stringify(call.options.prompt);
      if (prompt.includes('"published"')) return "Published it.";
      if (prompt.includes("Tuesday")) return { toolCalls: [{ toolName: "publish", input: { copy: "Launch day" } }] };
      return { toolCalls: [{ toolName: "ask_user", input: { question: "When should it go out?" } }] };
    });
    const chat = createChat({
      store: memoryStore(),
      responder: agentResponder({
        start: "front",
        agents: {
          front: simple(scriptedModel([handoffTo("editor")])),
          editor: {
            render: ({ input, handoff }) => (
              <Agent model={editor}>
                {handoff}
                <Tool name="publish" value={publish} />
                <AskUser />
                <Step id="reply" prompt={input} />
              </Agent>
            ),
            reply: (result) => String(result.steps.reply),
          },
        },
      }),
    });
    const turn = (await chat.createSession()).send("Publish my copy");
    const kinds: string[] = [];
    for await (const event of turn) {
      if (event.type === "input-request") {
        kinds.push("question");
        turn.answer(event.request.id, "Tuesday");
      }
      if (event.type === "approval-request") {
        kinds.push(event.request.toolName);
        turn.approve(event.request.id);
      }
    }
    const result = await turn.result;
    expect(kinds).toEqual(["question", "publish"]);
    expect(result.text).toBe("Published it.");
    expect(result.metadata).toMatchObject({ agent: { id: "editor" }, handoff: { from: "front", to: "editor" } });
    expect(published).toEqual(["Launch day"]);
  });

  it("durable: a turn suspended in the editor after a same-turn handoff resumes in the editor, in another chat; the checkpoint names it", async () => {
    const dir = join(root, "durable");
    const published: string[] = [];
    const calls = { front: 0, editor: 0 };
    const publish = publishTool(published);
    const durableTeam = (store: ChatStore, suspendAfterMs: number) => {
      const front = scriptedModel(() => {
        calls.front++;
        return handoffTo("editor", "publishing");
      });
      const editor = scriptedModel(({ options }) => {
        calls.editor++;
        return JSON.stringify(options.prompt).includes('"published"') ? "Published it." : { toolCalls: [{ toolName: "publish", input: { copy: "Launch day" } }] };
      });
      return createChat({
        store,
        responder: agentResponder({
          start: "front",
          durable: { suspendAfterMs },
          agents: {
            front: { version: "1", render: ({ input, handoff }) => <Agent model={front}>{handoff}<Step id="reply" prompt={input} /></Agent>, reply: (r) => String(r.steps.reply) },
            editor: {
              version: "2",
              render: ({ input }) => <Agent model={editor}><Tool name="publish" value={publish} /><Step id="reply" prompt={input} /></Agent>,
              reply: (r) => String(r.steps.reply),
            },
          },
        }),
      });
    };
    const store = fileStore(dir);
    const session = await durableTeam(store, 30).createSession({ id: "s1" });
    const waiting = session.send("Publish my copy");
    const suspended = await waiting.result.catch((error: unknown) => error);
    expect((suspended as Error).name).toBe("TurnSuspendedError");
    const stored = await store.getCheckpoint!("s1", waiting.id);
    const state = decodeCheckpoint(stored!.data, "s1", waiting.id, undefined).state as { team: number; agent: string; handoffs: unknown[]; run: { waiting: object } };
    expect(state).toMatchObject({ team: 1, agent: "editor", handoffs: [{ from: "front", to: "editor", reason: "publishing" }] });
    expect(Object.keys(state.run.waiting)).toEqual(["reply"]);
    expect(calls).toEqual({ front: 1, editor: 1 });
    await store.close?.();

    const again = await durableTeam(fileStore(dir), 60_000).openSession("s1");
    const live = await again.resume(waiting.id);
    expect(live.requests.map((request) => request.toolName)).toEqual(["publish"]);
    live.approve(live.requests[0]!.id);
    const result = await live.result;
    expect(result.text).toBe("Published it.");
    expect(result.metadata).toMatchObject({ agent: { id: "editor", version: "2" }, handoff: { from: "front", to: "editor", reason: "publishing" } });
    expect(published).toEqual(["Launch day"]);
    // The front agent is not asked again; the editor's model once more, with the tool's result.
    expect(calls).toEqual({ front: 1, editor: 2 });
  });

  it("guardrails: a tool guardrail stops the new agent's call before it runs; an output guardrail checks the new agent's reply", async () => {
    const deleted: string[] = [];
    const remove = tool({
      description: "Delete copy",
      inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
      execute: async ({ id }) => {
        deleted.push(id);
        return "deleted";
      },
    });
    const editor = scriptedModel((call) =>
      JSON.stringify(call.options.prompt).includes("no deleting") ? "I may not delete it; here is the secret plan." : { toolCalls: [{ toolName: "remove", input: { id: "c1" } }] },
    );
    const chat = createChat({
      store: memoryStore(),
      guardrails: {
        tool: [{ name: "no-delete", check: ({ toolName, input }) => (toolName === "remove" && input !== undefined ? "no deleting" : undefined) }],
        output: [{ name: "no-secrets", check: ({ text }) => (text.includes("secret") ? "mentions a secret" : undefined) }],
      },
      responder: agentResponder({
        start: "front",
        agents: {
          front: simple(scriptedModel([handoffTo("editor")])),
          editor: {
            render: ({ input }) => (
              <Agent model={editor}>
                <Tool name="remove" value={remove} />
                <Step id="reply" prompt={input} />
              </Agent>
            ),
            reply: (result) => String(result.steps.reply),
          },
        },
      }),
    });
    const error = await (await chat.createSession()).send("Delete my draft").result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "GuardrailTrippedError", guardrail: "no-secrets" });
    expect(deleted).toEqual([]);
  });

  it("budgets: the turn's budget counts every agent's run", async () => {
    const chat = createChat({
      store: memoryStore(),
      budget: { turn: { tokens: 100 } },
      responder: agentResponder({
        start: "front",
        agents: {
          front: simple(scriptedModel([{ ...(handoffTo("editor") as object), usage: { inputTokens: 80, outputTokens: 30 } }])),
          editor: simple(scriptedModel(["never asked"])),
        },
      }),
    });
    const session = await chat.createSession();
    const error = await session.send("Hi").result.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "BudgetExceededError", scope: "turn" });
    // The failed turn keeps what it spent, once.
    expect((await session.turns())[0]!.metadata?.usage).toMatchObject({ inputTokens: 80, outputTokens: 30 });
  });
});
