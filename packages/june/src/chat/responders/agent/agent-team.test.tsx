import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool, type TraceNode } from "june";
import { agentResponder, createChat, fileStore, projectChatTrace, type ChatStore } from "june/chat";
import { HANDOFF_TOOL } from "./agent-team.js";
import { scriptedModel } from "june/testing";

const root = mkdtempSync(join(tmpdir(), "june-agent-team-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function findAll(tree: TraceNode, test: (node: TraceNode) => boolean): TraceNode[] {
  const out = test(tree) ? [tree] : [];
  for (const child of tree.children) out.push(...findAll(child, test));
  return out;
}

/** A front desk that hands off to the editor when asked to edit, and an editor that hands back (by code) when told "done". */
function team(store: ChatStore, seen: string[], handoff: "same-turn" | "next-turn") {
  const front = scriptedModel(({ options }) => {
    seen.push("front");
    const prompt = JSON.stringify(options.prompt);
    if (prompt.includes("Handed off to editor")) return "The editor takes it from here.";
    if (prompt.includes("edit")) return { toolCalls: [{ toolName: HANDOFF_TOOL, input: { agent: "editor", reason: "The user wants copy edited" }, toolCallId: "call-handoff" }] };
    return "Front desk here.";
  }, { modelId: "front" });
  const editor = scriptedModel(({ options }) => {
    seen.push("editor");
    const prompt = JSON.stringify(options.prompt);
    return prompt.includes("Front desk here.") || prompt.includes("editor takes it") ? "Editor here: send me the copy." : "Editor here.";
  }, { modelId: "editor" });
  return createChat({
    store,
    responder: agentResponder({
      id: "desk",
      version: "3",
      start: "front",
      handoff,
      agents: {
        front: {
          version: "1",
          description: "answers first",
          render: ({ input, messages, handoff }) => (
            <Agent model={front}>
              {handoff}
              <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
            </Agent>
          ),
          reply: (result) => String(result.steps.reply),
        },
        editor: {
          version: "2",
          description: "edits copy",
          render: ({ input, messages }) => (
            <Agent model={editor}>
              <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
            </Agent>
          ),
          reply: (result) => String(result.steps.reply),
          handoff: (result) => (String(result.steps.reply).includes("Editor") && seen.includes("done") ? { to: "front", reason: "editing is done" } : undefined),
        },
      },
    }),
  });
}

describe("agentResponder({ agents, start }): handoffs", () => {
  it('handoff: "next-turn": the first agent hands off; the next turn goes to the second, provenance says so, and reopening the session keeps it', async () => {
    const dir = join(root, "store");
    const seen: string[] = [];
    const store = fileStore(dir);
    const session = await team(store, seen, "next-turn").createSession();

    const first = session.send("Hello");
    const hello = await first.result;
    expect(hello.text).toBe("Front desk here.");
    expect(hello.metadata).toMatchObject({ responder: { kind: "agent", id: "desk", version: "3" }, agent: { id: "front", version: "1" } });
    expect(hello.metadata.handoff).toBeUndefined();

    const second = session.send("Please edit my headline");
    const handedOff = await second.result;
    expect(handedOff.text).toBe("The editor takes it from here.");
    expect(handedOff.metadata).toMatchObject({ agent: { id: "front", version: "1" }, handoff: { from: "front", to: "editor", reason: "The user wants copy edited" } });
    // The handoff shows in the trace: the handoff tool's call, with the agent and the reason.
    const call = findAll(handedOff.run!.trace, (node) => node.kind === "tool-call" && node.toolName === HANDOFF_TOOL)[0];
    expect(call).toMatchObject({ status: "done", input: { agent: "editor", reason: "The user wants copy edited" } });
    expect(projectChatTrace(handedOff.run!.trace)[0]!.children.some((row) => row.kind === "tool" && row.toolName === HANDOFF_TOOL)).toBe(true);

    const third = await session.send("Here it is").result;
    expect(third.text).toBe("Editor here: send me the copy.");
    expect(third.metadata.agent).toEqual({ id: "editor", version: "2" });
    expect((await session.turns()).map((turn) => turn.metadata?.agent?.id)).toEqual(["front", "front", "editor"]);
    await store.close?.();

    // Another chat over the same store: the journal says the editor holds the conversation.
    const reopenedStore = fileStore(dir);
    const reopened = await team(reopenedStore, seen, "next-turn").openSession(session.id);
    const before = seen.filter((s) => s === "editor").length;
    const fourth = await reopened.send("One more thing").result;
    expect(fourth.metadata.agent).toEqual({ id: "editor", version: "2" });
    expect(seen.filter((s) => s === "editor").length).toBe(before + 1);

    // Code hands back: the editor's `handoff` function names the front desk.
    seen.push("done");
    const fifth = await reopened.send("Thanks, that's all").result;
    expect(fifth.metadata).toMatchObject({ agent: { id: "editor" }, handoff: { from: "editor", to: "front", reason: "editing is done" } });
    const sixth = await reopened.send("Hello again").result;
    expect(sixth.metadata.agent).toEqual({ id: "front", version: "1" });
    await reopenedStore.close?.();
  });

  it('durable, handoff: "next-turn": a turn of the agent that holds the conversation suspends on approval and resumes, in another chat, with that agent', async () => {
    const dir = join(root, "durable");
    const published: string[] = [];
    const publish = tool({
      description: "Publish copy",
      inputSchema: jsonSchema<{ copy: string }>({ type: "object", properties: { copy: { type: "string" } }, required: ["copy"] }),
      needsApproval: true,
      execute: async ({ copy }) => {
        published.push(copy);
        return "published";
      },
    });
    const durableTeam = (store: ChatStore, suspendAfterMs: number) => {
      const front = scriptedModel(({ options }) =>
        JSON.stringify(options.prompt).includes("Handed off") ? "Passing you on." : { toolCalls: [{ toolName: HANDOFF_TOOL, input: { agent: "editor", reason: "publishing" } }] },
      );
      const editor = scriptedModel(({ options }) =>
        JSON.stringify(options.prompt).includes('"published"') ? "Published it." : { toolCalls: [{ toolName: "publish", input: { copy: "Launch day" } }] },
      );
      return createChat({
        store,
        responder: agentResponder({
          start: "front",
          handoff: "next-turn",
          durable: { suspendAfterMs },
          agents: {
            front: { render: ({ input, handoff }) => <Agent model={front}>{handoff}<Step id="reply" prompt={input} /></Agent>, reply: (r) => String(r.steps.reply) },
            editor: {
              version: "2",
              render: ({ input }) => <Agent model={editor}><Tool name="publish" value={publish} /><Step id="reply" prompt={input} /></Agent>,
              reply: (r) => String(r.steps.reply),
            },
          },
        }),
      });
    };
    const session = await durableTeam(fileStore(dir), 30).createSession({ id: "s1" });
    expect((await session.send("Publish my copy").result).metadata.handoff).toMatchObject({ to: "editor" });
    const waiting = session.send("Launch day");
    const suspended = await waiting.result.catch((error: unknown) => error);
    expect((suspended as Error).name).toBe("TurnSuspendedError");

    const again = await durableTeam(fileStore(dir), 60_000).openSession("s1");
    const live = await again.resume(waiting.id);
    expect(live.requests.map((request) => request.toolName)).toEqual(["publish"]);
    live.approve(live.requests[0]!.id);
    const result = await live.result;
    expect(result.text).toBe("Published it.");
    expect(result.metadata.agent).toEqual({ id: "editor", version: "2" });
    expect(published).toEqual(["Launch day"]);
  });

  it("bad options are a TypeError naming what is wrong", () => {
    const render = () => null;
    const reply = () => "";
    expect(() => agentResponder({ agents: {}, start: "a" })).toThrow(/`agents` must be an object/);
    expect(() => agentResponder({ agents: { a: { render, reply } }, start: "b" })).toThrow(/`start` must name one of the agents \(a\)/);
    expect(() => agentResponder({ agents: { a: { render } as never }, start: "a" })).toThrow(/agent "a" needs `reply`/);
  });
});
