/**
 * The seed's "Chat with a June agent" blocks (the engineer chat, the approvals loop, traces, streaming the
 * reply) run as written, with only the model swapped for a scripted one.
 */
import { jsonSchema, tool } from "ai";
import { Agent, Catch, RunError, start, Step, TimeoutError, Tool } from "june";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentResponder, createChat, projectChatTrace, recentTurns, StreamMismatchError, type Chat, type ChatTraceRow, type Turn } from "june/chat";
import { scriptedModel, type ScriptedModel } from "june/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunResult, ToolCallNode, TraceNode } from "../runtime/types.js";

// The seed's engineer chat is `__fixtures__/seed-engineer.tsx`, the seed's block byte for byte. Only its model
// is swapped: `openai("gpt-5-mini")` runs at every render, and here returns the scripted model of the test.
const models = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock("june/sdk/openai", () => ({
  openai: (modelId: string) => {
    if (modelId !== "gpt-5-mini" || !models.current) throw new Error(`unexpected openai(${JSON.stringify(modelId)})`);
    return models.current;
  },
}));

// The seed keeps sessions in `fileStore(".june/chat")`: run it in a throwaway working directory.
const home = process.cwd();
const cwd = mkdtempSync(join(tmpdir(), "june-seed-agent-"));
const storeDir = join(cwd, ".june/chat");
let engineer: Chat;
beforeAll(async () => {
  process.chdir(cwd);
  engineer = (await import("./__fixtures__/seed-engineer.js")).default;
});
afterAll(() => {
  process.chdir(home);
  rmSync(cwd, { recursive: true, force: true });
});

/** The seed's engineer chat, answering with `model`. */
function engineerChat(model: ScriptedModel): Chat {
  models.current = model;
  return engineer;
}

/** The seed's deploy tool's call in a run's trace. */
function deployCall(trace: TraceNode): ToolCallNode | undefined {
  return findNode(trace, (n) => n.kind === "tool-call" && n.toolName === "deploy") as ToolCallNode | undefined;
}

/** The seed's approvals loop, verbatim. */
async function approvalsLoop(turn: Turn): Promise<void> {
  for await (const event of turn) {
    if (event.type === "approval-request") {
      const { id, toolName, input } = event.request;
      // Events are buffered, so skip a request the run has since withdrawn.
      if (!turn.requests.some((request) => request.id === id)) continue;
      if (toolName === "deploy" && (input as { env: string }).env !== "prod") {
        turn.approve(id);
      } else {
        turn.deny(id, "Only non-prod deploys from chat");
      }
    }
  }
}

function deployScript(env: string, after: string) {
  return [{ toolCalls: [{ toolName: "deploy", input: { env } }], usage: { inputTokens: 20, outputTokens: 5 } }, { text: after, usage: { inputTokens: 30, outputTokens: 4 } }];
}

function promptText(model: ScriptedModel, call: number): string {
  return JSON.stringify(model.doStreamCalls[call].prompt);
}

describe("seed: chat with a June agent", () => {
  it("answers each turn with a run, passing the conversation in through render", async () => {
    const model = scriptedModel(["Hi! What should I ship?", "Shipping the fix now."]);
    const chat = engineerChat(model);
    const session = await chat.createSession();

    const first = await session.send("hello").result;
    expect(first.text).toBe("Hi! What should I ship?");
    expect(first.metadata).toEqual({
      responder: { kind: "agent", id: "engineer", version: "1" },
      model: { provider: "june-test", modelId: "scripted" },
      usage: first.run!.usage,
    });
    expect(first.run).toMatchObject({ status: "done", steps: { reply: "Hi! What should I ship?" } });
    expect(first.run!.usage.totalTokens).toBeGreaterThan(0);

    const second = await session.send("the login fix").result;
    expect(second.text).toBe("Shipping the fix now.");
    // Nothing is injected: the conversation reaches the model only as the step's prompt.
    const prompt = promptText(model, 1);
    expect(prompt).toContain("hello");
    expect(prompt).toContain("Hi! What should I ship?");
    expect(prompt).toContain("the login fix");
    expect(prompt).toContain("You ship code.");

    const turns = await session.turns();
    expect(turns.map((t) => [t.status, t.text])).toEqual([
      ["completed", "Hi! What should I ship?"],
      ["completed", "Shipping the fix now."],
    ]);
    expect(turns[1].metadata?.responder).toEqual({ kind: "agent", id: "engineer", version: "1" });
  });

  it("runs the approvals loop: a non-prod deploy is approved and executes", async () => {
    const model = scriptedModel(deployScript("staging", "Deployed to staging."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy to staging");
    await approvalsLoop(turn);
    const result = await turn.result;
    expect(result.text).toBe("Deployed to staging.");
    // The tool ran: its output is in the trace, and the model heard it.
    expect(deployCall(result.run!.trace)).toMatchObject({ status: "done", input: { env: "staging" }, output: "deployed to staging", approval: { state: "approved" } });
    expect(promptText(model, 1)).toContain("deployed to staging");
    expect(result.metadata.usage).toEqual(result.run!.usage);
    expect(result.run!.usage.inputTokens).toBe(50);

    // What's stored: the reply and small provenance only, never the trace or tool inputs/outputs.
    const journal = JSON.stringify(await session.turns()) + readAll(storeDir);
    expect(journal).toContain("Deployed to staging.");
    expect(journal).not.toContain("deployed to staging");
    expect(journal).not.toContain('"env"');
    expect(journal).not.toContain("partialText");
  });

  it("runs the approvals loop: a prod deploy is denied and never executes", async () => {
    const model = scriptedModel(deployScript("prod", "I can't deploy to prod from chat."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy to prod");
    const events: string[] = [];
    const seen = (async () => {
      for await (const event of turn) events.push(event.type);
    })();
    await approvalsLoop(turn);
    await seen;
    const result = await turn.result;
    expect(result.text).toBe("I can't deploy to prod from chat.");
    // The tool never ran: no output in the trace, and nothing it would have said reached the model.
    expect(deployCall(result.run!.trace)?.output).toBeUndefined();
    expect(promptText(model, 1)).not.toContain("deployed to prod");
    expect(model.callCount).toBe(2);
    // The model was told why.
    expect(promptText(model, 1)).toContain("Only non-prod deploys from chat");
    expect(deployCall(result.run!.trace)).toMatchObject({ status: "done", approval: { state: "denied", reason: "Only non-prod deploys from chat" } });
    // An approval-request always follows a run-update.
    const firstRequest = events.indexOf("approval-request");
    expect(firstRequest).toBeGreaterThan(0);
    expect(events[firstRequest - 1]).toBe("run-update");
    expect(events.filter((e) => e === "approval-request")).toHaveLength(1);
  });

  it("a request the run withdrew stays in the buffered events but leaves turn.requests, so the approvals loop skips it", async () => {
    const model = scriptedModel(deployScript("staging", "Never said."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy to staging");
    let requestId: string | undefined;
    for await (const event of turn) {
      if (event.type === "approval-request") {
        requestId = event.request.id;
        break;
      }
    }
    expect(turn.requests.map((request) => request.id)).toEqual([requestId]);
    turn.cancel();
    await expect(turn.result).rejects.toBeDefined();
    // Withdrawn with the run: gone from requests, still replayed by a late reader.
    expect(turn.requests).toEqual([]);
    const replayed: string[] = [];
    for await (const event of turn) if (event.type === "approval-request") replayed.push(event.request.id);
    expect(replayed).toEqual([requestId]);
    await approvalsLoop(turn);
    expect(turn.approve(requestId!)).toBe(false);
    expect(model.callCount).toBe(1);
    expect((await session.turns()).at(-1)?.status).toBe("canceled");
  });

  it("a canceled turn still delivers the run's last snapshot: the trace shows the step canceled, no approval left", async () => {
    const model = scriptedModel(deployScript("staging", "Never said."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy to staging");
    for await (const event of turn) {
      if (event.type === "approval-request") break;
    }
    turn.cancel();
    await expect(turn.result).rejects.toBeDefined();
    const updates: TraceNode[] = [];
    for await (const event of turn) if (event.type === "run-update") updates.push(event.tree as TraceNode);
    const last = updates.at(-1)!;
    expect(findNode(last, (n) => n.kind === "step")?.status).toBe("canceled");
    expect(deployCall(last)?.status).toBe("canceled");
    const rows = projectChatTrace(last, { requests: turn.requests });
    expect(JSON.stringify(rows)).not.toContain('"kind":"approval"');
    expect(rows.every((row) => row.status !== "running" && row.status !== "pending")).toBe(true);
  });

  it("sees earlier turns as the chat's context builds them, not as the responder chooses", async () => {
    const seen: number[] = [];
    const model = scriptedModel(["one", "two", "three"]);
    const chat = createChat({
      responder: agentResponder({
        render: ({ messages, input }) => {
          seen.push(messages.length);
          return (
            <Agent model={model}>
              <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
            </Agent>
          );
        },
        reply: (result) => String(result.steps.reply),
      }),
      context: recentTurns(1),
    });
    const session = await chat.createSession();
    for (const input of ["a", "b", "c"]) await session.send(input).result;
    expect(seen).toEqual([0, 2, 2]);
    expect(promptText(model, 2)).toContain("two");
    expect(promptText(model, 2)).not.toContain("one");
  });

  it("delivers each commit as a run-update snapshot, and the announced request is pending in the one before it", async () => {
    const model = scriptedModel(deployScript("staging", "Done."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy");
    const trees: TraceNode[] = [];
    for await (const event of turn) {
      if (event.type === "run-update") trees.push(event.tree as TraceNode);
      if (event.type === "approval-request") {
        const last = trees[trees.length - 1];
        const node = findNode(last, (n) => n.kind === "tool-call" && n.approval?.id === event.request.id);
        expect(node).toMatchObject({ approval: { state: "pending" } });
        turn.approve(event.request.id);
      }
    }
    const result = await turn.result;
    expect(trees.length).toBeGreaterThan(1);
    // Snapshots are immutable: earlier ones keep their state.
    expect(findNode(trees[0], (n) => n.kind === "step")?.status).not.toBe("done");
    expect(trees[trees.length - 1]).toEqual(result.run!.trace);
  });

  it("fails the turn when a failure is not caught", async () => {
    const model = scriptedModel([{ error: new Error("provider exploded"), errorAt: "start" }]);
    const session = await engineerChat(model).createSession();
    const turn = session.send("hello");
    let rows: ChatTraceRow[] = [];
    for await (const event of turn) {
      if (event.type === "run-update") rows = projectChatTrace(event.tree, { requests: turn.requests });
    }
    await expect(turn.result).rejects.toThrow(/provider exploded/);
    // The turn's last run-update shows what failed, so a UI can say so.
    expect(rows.map((row) => [row.kind, row.title, row.status])).toEqual([["step", "reply failed", "error"]]);
    expect(rows[0].error).toMatch(/provider exploded/);
    expect(turn.status).toBe("failed");
    const [record] = await session.turns();
    expect(record.status).toBe("failed");
    expect(record.error?.message).toMatch(/provider exploded/);
  });

  it("keeps the runtime's Catch and timeout: a caught failure still replies, a run past its timeout fails the turn", async () => {
    const caught = createChat({
      responder: agentResponder({
        render: () => (
          <Agent model={scriptedModel([{ error: new Error("flaky"), errorAt: "start" }, "fallback answer"])}>
            <Catch fallback={<Step id="fallback" prompt="answer simply" />}>
              <Step id="research" prompt="dig" />
            </Catch>
          </Agent>
        ),
        reply: (result) => String(result.steps.fallback),
      }),
    });
    const result = await (await caught.createSession()).send("q").result;
    expect(result.text).toBe("fallback answer");
    expect(findNode(result.run!.trace, (n) => n.kind === "step" && n.name === "research")?.status).toBe("error");

    const slow = createChat({
      responder: agentResponder({
        render: () => (
          <Agent model={scriptedModel({ text: ["a", "b", "c"], delay: 200 })}>
            <Step id="reply" prompt="slow" />
          </Agent>
        ),
        reply: (r) => String(r.steps.reply),
        run: { timeout: 30 },
      }),
    });
    const session = await slow.createSession();
    const error = await session.send("q").result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).cause).toBeInstanceOf(TimeoutError);
    expect((await session.turns())[0].status).toBe("failed");
  });

  it("records the model only when every step used the same one", async () => {
    const a = scriptedModel("draft", { modelId: "a" });
    const b = scriptedModel("final", { modelId: "b" });
    const chat = createChat({
      responder: agentResponder({
        render: () => (
          <Agent model={a}>
            <Step id="draft" prompt="write" />
            <Agent model={b}>
              <Step id="final" prompt="rewrite" />
            </Agent>
          </Agent>
        ),
        reply: (result) => String(result.steps.final),
      }),
    });
    const result = await (await chat.createSession()).send("go").result;
    expect(result.text).toBe("final");
    expect(result.metadata.model).toBeUndefined();
    expect(result.metadata.responder).toEqual({ kind: "agent" });
    expect(result.metadata.usage).toEqual(result.run!.usage);
  });
});

describe("seed: traces", () => {
  it("projects each snapshot into rows with stable ids and an approval row while the request is pending", async () => {
    const model = scriptedModel(deployScript("staging", "Deployed."));
    const session = await engineerChat(model).createSession();
    const turn = session.send("deploy to staging");

    let rows: ChatTraceRow[] = [];
    const idsSeen = new Map<string, string>();
    let approvalRow: ChatTraceRow | undefined;
    let lastTree: TraceNode | undefined;
    for await (const event of turn) {
      if (event.type === "run-update") {
        lastTree = event.tree as TraceNode;
        rows = projectChatTrace(event.tree, { requests: turn.requests });
        for (const row of flatten(rows)) {
          const kindBefore = idsSeen.get(row.id);
          if (kindBefore) expect(kindBefore).toBe(row.kind);
          idsSeen.set(row.id, row.kind);
        }
      }
      if (event.type === "approval-request") {
        // The run-update just before this event shows the call pending.
        rows = projectChatTrace(lastTree!, { requests: turn.requests });
        approvalRow = flatten(rows).find((row) => row.kind === "approval");
        expect(approvalRow).toMatchObject({ kind: "approval", approvalId: event.request.id, toolName: "deploy", status: "pending" });
        const toolRow = flatten(rows).find((row) => row.kind === "tool");
        expect(toolRow).toMatchObject({ title: "deploy needs approval", status: "pending" });
        turn.approve(event.request.id);
      }
    }
    await turn.result;
    expect(approvalRow).toBeDefined();
    expect(rows.map((row) => [row.kind, row.title, row.status])).toEqual([["step", "reply finished", "done"]]);
    expect(rows[0].children.map((row) => row.kind)).toEqual(["model", "tool", "model"]);
    expect(rows[0].children[1]).toMatchObject({ kind: "tool", title: "deploy ran", input: '{"env":"staging"}', output: "deployed to staging", children: [] });
    // The final rows keep the ids the first snapshots gave them.
    for (const row of flatten(rows)) expect(idsSeen.get(row.id)).toBe(row.kind);
  });
});

describe("seed: streaming the reply", () => {
  function streamingChat(model: ScriptedModel, reply: (result: RunResult) => string = (result) => String(result.steps.reply)) {
    return createChat({
      responder: agentResponder({
        render: ({ messages, input }) => (
          <Agent model={model}>
            <Step id="reply" stream prompt={[...messages, { role: "user", content: input }]} />
          </Agent>
        ),
        reply,
        stream: { step: "reply" },
      }),
    });
  }

  it("streams the step's text as text-deltas after the run-update that carried them, adding up to the reply", async () => {
    const model = scriptedModel({ text: ["The ", "sky ", "is ", "blue ", "because ", "of ", "Rayleigh ", "scattering."], delay: 15 });
    const turn = (await streamingChat(model).createSession()).send("why is the sky blue?");
    const events: { type: string; text?: string }[] = [];
    for await (const event of turn) events.push(event.type === "text-delta" ? { type: "text-delta", text: event.text } : { type: event.type });
    const result = await turn.result;
    const deltas = events.filter((e) => e.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.text).join("")).toBe(result.text);
    expect(result.text).toBe("The sky is blue because of Rayleigh scattering.");
    expect(events[0].type).toBe("run-update");
    // Every delta comes right after a run-update (or after the delta that run-update carried).
    for (let i = 0; i < events.length; i++) {
      if (events[i].type === "text-delta") expect(["run-update", "text-delta"]).toContain(events[i - 1].type);
    }
  });

  it("sends what the reply adds past the streamed text as one last delta", async () => {
    const model = scriptedModel({ text: ["Hello", ", world"], delay: 5 });
    const turn = (await streamingChat(model, (result) => `${String(result.steps.reply)}!`).createSession()).send("hi");
    const deltas: string[] = [];
    for await (const event of turn) if (event.type === "text-delta") deltas.push(event.text);
    const result = await turn.result;
    expect(result.text).toBe("Hello, world!");
    expect(deltas.join("")).toBe("Hello, world!");
    expect(deltas[deltas.length - 1]).toBe("!");
  });

  it("fails the turn when the reply contradicts what streamed", async () => {
    const model = scriptedModel({ text: ["Let me ", "check"], delay: 5 });
    const session = await streamingChat(model, () => "Something else").createSession();
    const turn = session.send("hi");
    for await (const _event of turn) {
      // drain
    }
    const error = await turn.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamMismatchError);
    // No tool was involved: the hint names the reply (issue 41).
    expect((error as Error).message).toContain("No tool was called: reply(result) returned other text than the step streamed");
    expect(turn.status).toBe("failed");
    const [record] = await session.turns();
    expect(record.error?.name).toBe("StreamMismatchError");
  });

  it("fails the turn when the streamed step calls a tool after streaming text, before the tool runs (issue 41)", async () => {
    // The seed's rule, stream a step that doesn't call tools, holds before any side effect.
    const execute = vi.fn(async () => "42");
    const lookup = tool({
      description: "Look something up",
      inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
      execute,
    });
    const model = scriptedModel([{ text: ["Let me ", "check."], toolCalls: [{ toolName: "lookup", input: { q: "answer" } }] }, { text: ["It is ", "42."] }]);
    const chat = createChat({
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <Tool name="lookup" value={lookup} />
            <Step id="reply" stream prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
      }),
    });
    const session = await chat.createSession();
    const turn = session.send("what is the answer?");
    const deltas: string[] = [];
    for await (const event of turn) if (event.type === "text-delta") deltas.push(event.text);
    const error = await turn.result.catch((e: unknown) => e);
    expect(model.callCount).toBe(1);
    expect(execute).not.toHaveBeenCalled();
    expect(deltas.join("")).toBe("Let me check.");
    expect((error as Error).message).toContain('its model called the tool "lookup", so the tool did not run: a streamed step calls no tools');
    expect(turn.status).toBe("failed");
  });

  it("passes steer to the run; the deltas still add up to the reply", async () => {
    const model = scriptedModel([{ text: ["Once", " upon", " a", " time", " there", " was"], delay: 25 }, { text: [" a short story."] }]);
    const turn = (await streamingChat(model).createSession()).send("Tell a long story");
    const deltas: string[] = [];
    for await (const event of turn) {
      if (event.type === "text-delta") {
        deltas.push(event.text);
        if (deltas.length === 1) await turn.steer("Make it short.");
      }
    }
    const result = await turn.result;
    expect(model.callCount).toBe(2);
    expect(result.text.endsWith(" a short story.")).toBe(true);
    expect(deltas.join("")).toBe(result.text);
    expect(promptText(model, 1)).toContain("Make it short.");
  });

  it("lets a host launch the run with startRun and compose its own onUpdate", async () => {
    const model = scriptedModel({ text: ["a", "b"], delay: 5 });
    const hostSaw: TraceNode[] = [];
    const launched: { sessionId: string; turnId: string }[] = [];
    const chat = createChat({
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <Step id="reply" stream prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.reply),
        stream: { step: "reply" },
        run: { timeout: 10_000 },
        startRun: (element, options, turn) => {
          launched.push(turn);
          expect(options.timeout).toBe(10_000);
          expect(options.signal).toBeInstanceOf(AbortSignal);
          return start(element, {
            ...options,
            onUpdate: (tree) => {
              hostSaw.push(tree);
              options.onUpdate?.(tree);
            },
          });
        },
      }),
    });
    const session = await chat.createSession();
    const turn = session.send("go");
    const updates: TraceNode[] = [];
    for await (const event of turn) if (event.type === "run-update") updates.push(event.tree as TraceNode);
    expect((await turn.result).text).toBe("ab");
    expect(launched).toEqual([{ sessionId: session.id, turnId: turn.id }]);
    expect(updates).toEqual(hostSaw);
  });

  it("stops the deltas with the run when the turn is canceled", async () => {
    const model = scriptedModel({ text: Array.from({ length: 40 }, (_, i) => `w${i} `), delay: 10 });
    const session = await streamingChat(model).createSession();
    const turn = session.send("go on");
    const deltas: string[] = [];
    for await (const event of turn) {
      if (event.type === "text-delta") {
        deltas.push(event.text);
        if (deltas.length === 2) turn.cancel();
      }
    }
    await expect(turn.result).rejects.toBeDefined();
    expect(turn.status).toBe("canceled");
    const streamed = deltas.join("");
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan(Array.from({ length: 40 }, (_, i) => `w${i} `).join("").length);
    const [record] = await session.turns();
    expect(record.status).toBe("canceled");
  });
});

/** Every file under `dir`, concatenated. */
function readAll(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? readAll(path) : readFileSync(path, "utf8")))
    .join("\n");
}

function flatten(rows: ChatTraceRow[]): ChatTraceRow[] {
  return rows.flatMap((row) => [row, ...flatten(row.children)]);
}

function findNode(node: TraceNode, match: (node: TraceNode) => boolean): TraceNode | undefined {
  if (match(node)) return node;
  for (const child of node.children) {
    const found = findNode(child, match);
    if (found) return found;
  }
  return undefined;
}
