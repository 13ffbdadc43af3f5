import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { QuestionDeclinedError, start, Step, type RunContext } from "june";
import { memoryTracing, parentOf } from "../telemetry/__fixtures__/memory-tracing.js";
import { agentResponder, createChat, fileStore, memoryStore, TurnSuspendedError, type ChatStore, type DurableOptions, type Turn } from "june/chat";

const root = mkdtempSync(join(tmpdir(), "june-ask-code-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const QUESTION = "Which environment?";
const tracing = memoryTracing();

type Run = (ctx: RunContext, log: string[]) => Promise<string>;

/** Asks `QUESTION` and says the answer. */
const askOnce: Run = async (ctx, log) => {
  log.push("before ask");
  const env = await ctx.ask(QUESTION);
  log.push(`got ${JSON.stringify(env)}`);
  return `Deploying to ${JSON.stringify(env)}.`;
};

/** A chat whose `run` step asks a person and replies with the answer; `log` counts what its code did. */
function codeAskChat(options: { store: ChatStore; durable?: true | DurableOptions; run?: Run }) {
  const log: string[] = [];
  const run = options.run ?? askOnce;
  const responder = agentResponder({
    id: "code-asker",
    ...(options.durable ? { durable: options.durable } : {}),
    render: () => (
      <Step
          id="deploy"
          run={(ctx) => run(ctx, log)}
        />
    ),
    reply: (result) => String(result.steps.deploy),
  });
  return { chat: createChat({ store: options.store, responder }), log };
}

async function firstQuestion(turn: Turn) {
  for await (const event of turn) if (event.type === "input-request") return event.request;
  throw new Error("the turn ended without asking");
}

describe("ctx.ask in a run step", () => {
  it("asks with an input-request; turn.answer resumes the step, which gets the value; the trace has the ask_user row", async () => {
    const { chat, log } = codeAskChat({ store: memoryStore() });
    const session = await chat.createSession();
    const turn = session.send("ship");
    let tree: unknown;
    const question = await (async () => {
      for await (const event of turn) {
        if (event.type === "run-update") tree = event.tree;
        if (event.type === "input-request") return event.request;
      }
      throw new Error("the turn ended without asking");
    })();
    expect(question).toMatchObject({ id: expect.any(String), question: QUESTION, stepId: "deploy" });
    // The question's row, under the step's, pending until answered (as an `ask_user` call's).
    const step = (tree as { children: { name: string; children: unknown[] }[] }).children.find((n) => n.name === "deploy")!;
    expect(step.children).toEqual([expect.objectContaining({ kind: "tool-call", toolName: "ask_user", toolCallId: question.id, status: "pending", input: { question: QUESTION } })]);
    expect(turn.requests).toEqual([expect.objectContaining({ id: question.id, toolName: "ask_user", question: QUESTION })]);
    expect(turn.approve(question.id)).toBe(false);
    expect(turn.answer(question.id, { env: "staging" })).toBe(true);
    expect(turn.answer(question.id, "again")).toBe(false);
    const result = await turn.result;
    expect(result.text).toBe('Deploying to {"env":"staging"}.');
    expect(log).toEqual(["before ask", 'got {"env":"staging"}']);
  });

  it("cancel withdraws the question: the ask rejects with the cancel, the turn ends canceled", async () => {
    const { chat, log } = codeAskChat({ store: memoryStore() });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const question = await firstQuestion(turn);
    turn.cancel();
    await expect(turn.result).rejects.toThrow(/canceled/);
    expect(turn.status).toBe("canceled");
    expect(turn.answer(question.id, "late")).toBe(false);
    expect(log).toEqual(["before ask"]);
  });

  it("a denied question rejects the ask with QuestionDeclinedError, which the step's code can catch", async () => {
    const { chat } = codeAskChat({
      store: memoryStore(),
      run: async (ctx) => {
        try {
          return String(await ctx.ask(QUESTION));
        } catch (error) {
          if (QuestionDeclinedError.isInstance(error)) return `No answer (${error.message}; reason: ${error.reason}).`;
          throw error;
        }
      },
    });
    const session = await chat.createSession();
    const turn = session.send("ship");
    const question = await firstQuestion(turn);
    expect(turn.deny(question.id, "not telling")).toBe(true);
    expect((await turn.result).text).toBe('No answer (The question of step "deploy" was declined: not telling; reason: not telling).');
  });

  it("ctx.ask with no question is a clear error naming the step", async () => {
    const { chat } = codeAskChat({
      store: memoryStore(),
      run: async (ctx) => {
        return ctx.ask("").then(String, (e: Error) => e.message);
      },
    });
    const turn = (await chat.createSession()).send("ship");
    expect((await turn.result).text).toMatch(/ctx\.ask\(question\) in step "deploy": question must be a non-empty string/);
  });

  it("a durable turn suspends on the question; another chat over the store resumes it: the answer reaches the step, asked once", async () => {
    const dir = join(root, "durable");
    const one = codeAskChat({ store: fileStore(dir), durable: { suspendAfterMs: 50 } });
    const session = await one.chat.createSession({ id: "s1" });
    const turn = session.send("ship");
    const question = await firstQuestion(turn);
    expect(await turn.result.catch((e: unknown) => e)).toBeInstanceOf(TurnSuspendedError);
    expect(turn.status).toBe("suspended");
    expect(one.log).toEqual(["before ask"]);

    const two = codeAskChat({ store: fileStore(dir), durable: true });
    const again = await two.chat.openSession("s1");
    expect(await again.pendingApprovals()).toEqual([expect.objectContaining({ id: question.id, toolName: "ask_user", input: { question: QUESTION } })]);
    const live = await again.resume(turn.id);
    const events: string[] = [];
    const reading = (async () => {
      for await (const event of live) {
        events.push(event.type);
        // Asked once: answered, the step goes on and never asks again.
        if (event.type === "input-request") {
          expect(event.request.id).toBe(question.id);
          expect(live.answer(event.request.id, "prod")).toBe(true);
        }
      }
    })();
    const result = await live.result;
    await reading;
    expect(result.text).toBe('Deploying to "prod".');
    // The code before the ask ran twice (once per process), the question was asked once (same request id).
    expect([...one.log, ...two.log]).toEqual(["before ask", "before ask", 'got "prod"']);
    expect(events.filter((e) => e === "input-request")).toHaveLength(1);
  });

  it("two asks, suspended on the second: on resume the first returns its stored answer without asking, the second opens again with its id", async () => {
    const dir = join(root, "durable-two");
    const run: Run = async (ctx, log) => {
      log.push("start");
      const env = await ctx.ask(QUESTION);
      log.push(`got ${JSON.stringify(env)}`);
      const region = await ctx.ask("Which region?");
      log.push(`got ${JSON.stringify(region)}`);
      return `Deploying to ${String(env)} in ${String(region)}.`;
    };
    const one = codeAskChat({ store: fileStore(dir), durable: { suspendAfterMs: 50 }, run });
    const session = await one.chat.createSession({ id: "s2" });
    const turn = session.send("ship");
    const asked: { id: string; question: string }[] = [];
    const reading = (async () => {
      for await (const event of turn) {
        if (event.type !== "input-request") continue;
        asked.push(event.request);
        if (asked.length === 1) expect(turn.answer(event.request.id, "prod")).toBe(true);
      }
    })();
    expect(await turn.result.catch((e: unknown) => e)).toBeInstanceOf(TurnSuspendedError);
    await reading;
    expect(asked.map((q) => q.question)).toEqual([QUESTION, "Which region?"]);
    expect(one.log).toEqual(["start", 'got "prod"']);

    const two = codeAskChat({ store: fileStore(dir), durable: true, run });
    const again = await two.chat.openSession("s2");
    expect((await again.pendingApprovals()).map((r) => r.id)).toEqual([asked[1]!.id]);
    const live = await again.resume(turn.id);
    const reasked: string[] = [];
    const draining = (async () => {
      for await (const event of live) {
        if (event.type !== "input-request") continue;
        reasked.push(event.request.id);
        expect(live.answer(event.request.id, "eu-west")).toBe(true);
      }
    })();
    expect((await live.result).text).toBe("Deploying to prod in eu-west.");
    await draining;
    expect(reasked).toEqual([asked[1]!.id]);
    expect(two.log).toEqual(["start", 'got "prod"', 'got "eu-west"']);
  });

  it("in start(): the run lists the question with handle.answer, and its june.approval span is the step's child", async () => {
    tracing.exporter.reset();
    const run = start(<Step id="deploy" run={async (ctx) => `to ${String(await ctx.ask(QUESTION))}`} />, {
      onUpdate: () => {
        const [request] = run.requests;
        if (request) run.answer!(request.id, "dev");
      },
    });
    const result = await run.result;
    expect(result.steps.deploy).toBe("to dev");
    const spans = tracing.spans();
    const approval = spans.find((span) => span.name === "june.approval")!;
    const step = spans.find((span) => span.name === "june.step")!;
    expect(approval.attributes).toMatchObject({ "june.approval.decision": "approved", "gen_ai.tool.name": "ask_user" });
    expect(parentOf(approval)).toBe(step.spanContext().spanId);
    expect(JSON.stringify(approval.attributes)).not.toContain("dev");
  });
});
