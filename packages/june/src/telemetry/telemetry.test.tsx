import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { jsonSchema, tool } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, Parallel, RunError, Step, Tool, start, type RunHandle } from "june";
import { agentResponder, createChat, modelResponder, type Turn } from "june/chat";
import { createChatHandler } from "june/server";
import { findNodes, scriptedModel } from "june/testing";
import { AI_SDK_MAJOR } from "../ai-sdk/major.js";
import { exported, memoryTracing, parentOf } from "./__fixtures__/memory-tracing.js";

const tracing = memoryTracing();
afterEach(() => tracing.exporter.reset());

/** Secrets that must never reach a span, wherever they were put. */
const CANARY_KEY = "sk-proj-CANARY0123456789abcdefSECRET";
const CANARY_BEARER = "Bearer CANARYBEARER0123456789";
const PROMPT_TEXT = "PROMPT-MARKER plan the deploy";
const REPLY_TEXT = "REPLY-MARKER the docs are on staging";

function deployTool() {
  const execute = vi.fn(async ({ env }: { env: string; token?: string }) => `deployed to ${env}`);
  const value = tool({
    description: "Deploy",
    inputSchema: jsonSchema<{ env: string; token?: string }>({
      type: "object",
      properties: { env: { type: "string" }, token: { type: "string" } },
      required: ["env"],
    }),
    needsApproval: true,
    execute,
  });
  return { value, execute };
}

/** A chat whose turn runs two steps: `plan` calls a tool that needs approval, then `reply` streams the answer. */
function agentChat(telemetry: Parameters<typeof createChat>[0]["telemetry"]) {
  const model = scriptedModel([
    { text: "Deploying.", toolCalls: [{ toolName: "deploy", input: { env: "staging", token: CANARY_KEY }, toolCallId: "call-1" }], usage: { inputTokens: 11, outputTokens: 3 } },
    { text: "Planned.", usage: { inputTokens: 20, outputTokens: 2 } },
    { text: ["REPLY-MARKER ", "the docs ", "are on staging"], usage: { inputTokens: 7, outputTokens: 5 } },
  ]);
  const { value, execute } = deployTool();
  const chat = createChat({
    responder: agentResponder({
      id: "deployer",
      version: "7",
      render: ({ input }) => (
        <Agent model={model} instructions="INSTRUCTIONS-MARKER" headers={{ Authorization: CANARY_BEARER }} experimental_telemetry={{ isEnabled: true }}>
          <Tool name="deploy" value={value} />
          <Step id="plan" prompt={`${PROMPT_TEXT}: ${input} (key ${CANARY_KEY})`} />
          <Step id="reply" stream prompt={(ctx) => `Say it: ${String(ctx.steps.plan)}`} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
    ...(telemetry !== undefined ? { telemetry } : {}),
  });
  return { chat, execute };
}

async function approveAll(turn: Turn): Promise<void> {
  for await (const event of turn) if (event.type === "approval-request") turn.approve(event.request.id);
}

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function one(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = byName(spans, name);
  expect(found, `spans named ${name}`).toHaveLength(1);
  return found[0]!;
}

describe("OpenTelemetry spans", () => {
  it("an agent turn: june.turn > june.run > june.step > model calls (gen_ai.*) and june.tool > june.approval, with the AI SDK's spans under June's model calls", async () => {
    const { chat, execute } = agentChat(true);
    const session = await chat.createSession({ id: "s-telemetry" });
    const turn = session.send("ship the docs");
    await approveAll(turn);
    const result = await turn.result;
    expect(result.text).toBe(REPLY_TEXT);
    expect(execute).toHaveBeenCalledTimes(1);

    const spans = tracing.spans();
    const turnSpan = one(spans, "june.turn");
    const run = one(spans, "june.run");
    const steps = byName(spans, "june.step");
    const calls = byName(spans, "chat scripted");
    const toolSpan = one(spans, "june.tool");
    const approval = one(spans, "june.approval");
    const aiRoots = byName(spans, "ai.streamText");

    // One trace, parents right.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(parentOf(turnSpan)).toBeUndefined();
    expect(parentOf(run)).toBe(turnSpan.spanContext().spanId);
    expect(steps.map((step) => step.attributes["june.step.id"]).sort()).toEqual(["plan", "reply"]);
    for (const step of steps) expect(parentOf(step)).toBe(run.spanContext().spanId);
    const plan = steps.find((step) => step.attributes["june.step.id"] === "plan")!;
    const reply = steps.find((step) => step.attributes["june.step.id"] === "reply")!;
    expect(calls).toHaveLength(3);
    expect(calls.filter((call) => parentOf(call) === plan.spanContext().spanId)).toHaveLength(2);
    expect(calls.filter((call) => parentOf(call) === reply.spanContext().spanId)).toHaveLength(1);
    expect(parentOf(toolSpan)).toBe(plan.spanContext().spanId);
    expect(parentOf(approval)).toBe(toolSpan.spanContext().spanId);

    // The AI SDK's spans: each ai.streamText is a child of one of June's model-call spans.
    expect(aiRoots).toHaveLength(3);
    const callIds = new Set(calls.map((call) => call.spanContext().spanId));
    for (const root of aiRoots) expect(callIds.has(parentOf(root)!)).toBe(true);
    expect(new Set(aiRoots.map(parentOf)).size).toBe(3);

    // Attributes.
    expect(turnSpan.attributes).toMatchObject({
      "june.session.id": "s-telemetry",
      "june.turn.id": result.metadata && turn.id,
      "june.responder.kind": "agent",
      "june.responder.id": "deployer",
      "june.responder.version": "7",
      "june.turn.status": "completed",
      "june.input.chars": "ship the docs".length,
      "gen_ai.usage.input_tokens": 38,
      "gen_ai.usage.output_tokens": 10,
    });
    expect(run.attributes).toMatchObject({ "june.run.status": "done", "june.usage.total_tokens": 48 });
    expect(plan.attributes).toMatchObject({ "june.step.status": "done", "gen_ai.usage.input_tokens": 31 });
    for (const call of calls) {
      expect(call.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "june-test",
        "gen_ai.system": "june-test",
        "gen_ai.request.model": "scripted",
        "gen_ai.response.model": "scripted",
      });
      expect(typeof call.attributes["gen_ai.usage.input_tokens"]).toBe("number");
      expect(typeof call.attributes["gen_ai.usage.output_tokens"]).toBe("number");
      expect(Array.isArray(call.attributes["gen_ai.response.finish_reasons"])).toBe(true);
    }
    expect(calls.map((call) => call.attributes["gen_ai.response.finish_reasons"])).toContainEqual(["tool-calls"]);
    expect(toolSpan.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "deploy",
      "gen_ai.tool.call.id": "call-1",
      "june.tool.needs_approval": true,
      "june.tool.approved": true,
      "june.tool.status": "done",
    });
    expect(approval.attributes).toMatchObject({ "june.approval.decision": "approved", "gen_ai.tool.name": "deploy" });
    expect(approval.attributes["june.approval.wait_ms"]).toBeGreaterThanOrEqual(0);
    // The AI SDK's request headers arrive, masked.
    const header = spans.flatMap((span) => Object.entries(span.attributes)).find(([key]) => key === "ai.request.headers.Authorization");
    expect(header?.[1]).toBe("[redacted]");

    // No canary, no prompt, instructions or reply text, no tool input anywhere (recordInputs/recordOutputs off).
    for (const span of spans) {
      const text = exported(span);
      expect(text, span.name).not.toContain("CANARY");
      expect(text, span.name).not.toContain("PROMPT-MARKER");
      expect(text, span.name).not.toContain("INSTRUCTIONS-MARKER");
      expect(text, span.name).not.toContain("REPLY-MARKER");
      expect(text, span.name).not.toContain("staging\"");
      expect(text, span.name).not.toContain("ship the docs");
    }
  });

  it("records content only when asked: recordInputs and recordOutputs, redacted and bounded", async () => {
    const { chat } = agentChat({ recordInputs: true, recordOutputs: true, maxContentChars: 2_000 });
    const session = await chat.createSession();
    const turn = session.send("ship the docs");
    await approveAll(turn);
    await turn.result;
    const spans = tracing.spans();
    const all = spans.map(exported).join("\n");
    expect(all).toContain("PROMPT-MARKER");
    expect(all).toContain("INSTRUCTIONS-MARKER");
    expect(all).toContain("REPLY-MARKER");
    expect(all).not.toContain("CANARY");
    expect(one(spans, "june.turn").attributes["june.turn.input"]).toBe("ship the docs");
    expect(one(spans, "june.turn").attributes["june.turn.output"]).toBe(REPLY_TEXT);
    expect(JSON.parse(String(one(spans, "june.tool").attributes["gen_ai.tool.call.arguments"]))).toEqual({ env: "staging", token: "[redacted]" });
    expect(one(spans, "june.tool").attributes["gen_ai.tool.call.result"]).toBe("deployed to staging");
    const input = byName(spans, "chat scripted").map((span) => String(span.attributes["gen_ai.input.messages"]));
    expect(input.some((text) => text.includes("PROMPT-MARKER"))).toBe(true);
    // The AI SDK's spans follow June's recordInputs when experimental_telemetry leaves it unset (AI SDK 6's
    // tracer-made spans; on AI SDK 7 the registered integration decides what it records).
    if (AI_SDK_MAJOR === 6) expect(byName(spans, "ai.streamText").some((span) => String(span.attributes["ai.prompt"] ?? "").includes("PROMPT-MARKER"))).toBe(true);

    tracing.exporter.reset();
    const { chat: small } = agentChat({ recordInputs: true, maxContentChars: 40 });
    const next = (await small.createSession()).send("x".repeat(500));
    await approveAll(next);
    await next.result;
    const input2 = String(one(tracing.spans(), "june.turn").attributes["june.turn.input"]);
    expect(input2).toBe(`${"x".repeat(40)}…[460 more chars]`);
  });

  it("telemetry: false records nothing, and a chat's `false` reaches the run", async () => {
    const { chat } = agentChat(false);
    const turn = (await chat.createSession()).send("ship the docs");
    await approveAll(turn);
    await turn.result;
    // The AI SDK's own spans (experimental_telemetry) still go out, under no June span.
    expect(tracing.spans().filter((span) => span.name.startsWith("june.") || span.name.startsWith("chat "))).toEqual([]);
  });

  it("a model chat: june.turn > chat {model} > ai.streamText; steer and cancel are events; usage on the spans", async () => {
    const model = scriptedModel([{ text: ["one ", "two ", "three"], delay: 20, usage: { inputTokens: 4, outputTokens: 3 } }, { text: "after steer" }]);
    const chat = createChat({ model, instructions: "INSTRUCTIONS-MARKER", experimental_telemetry: { isEnabled: true }, telemetry: true });
    const session = await chat.createSession();
    const turn = session.send("hello");
    for await (const event of turn) {
      if (event.type === "text-delta") {
        await turn.steer("and another thing");
        break;
      }
    }
    await turn.result;
    const spans = tracing.spans();
    const turnSpan = one(spans, "june.turn");
    const calls = byName(spans, "chat scripted");
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(parentOf(call)).toBe(turnSpan.spanContext().spanId);
    expect(calls.map((call) => call.attributes["gen_ai.response.finish_reasons"])).toContainEqual(["interrupted"]);
    const aiRoots = byName(spans, "ai.streamText");
    expect(aiRoots.map(parentOf).sort()).toEqual(calls.map((call) => call.spanContext().spanId).sort());
    expect(turnSpan.attributes).toMatchObject({ "june.responder.kind": "model", "june.turn.status": "completed", "gen_ai.request.model": "scripted" });
    const steer = turnSpan.events.find((event) => event.name === "june.steer");
    expect(steer?.attributes).toEqual({ "june.input.chars": "and another thing".length });
    expect(spans.map(exported).join("\n")).not.toContain("another thing");

    tracing.exporter.reset();
    const slow = createChat({ model: scriptedModel({ text: ["a", "b", "c"], delay: 200 }) });
    const canceled = (await slow.createSession()).send("hello");
    for await (const event of canceled) {
      if (event.type === "text-delta") canceled.cancel();
    }
    await expect(canceled.result).rejects.toThrow(/canceled/);
    const canceledSpan = one(tracing.spans(), "june.turn");
    expect(canceledSpan.attributes["june.turn.status"]).toBe("canceled");
    expect(canceledSpan.events.map((event) => event.name)).toContain("june.cancel");
    expect(byName(tracing.spans(), "chat scripted")[0]?.attributes["gen_ai.response.finish_reasons"]).toEqual(["canceled"]);
  });

  it("a steered <Step>: the interrupted call's ai.streamText span ends under its model call, as the continuation's does", async () => {
    const model = scriptedModel([{ text: ["Once", " upon", " a", " time", " there", " was"], delay: 25 }, { text: " a short story." }]);
    let handle!: RunHandle;
    let steered = false;
    handle = start(
      <Agent model={model} experimental_telemetry={{ isEnabled: true }}>
        <Step id="story" stream prompt="Tell a long story" />
      </Agent>,
      {
        telemetry: true,
        onUpdate: (tree) => {
          const step = findNodes(tree, "step")[0];
          if (!steered && step && step.partialText.length > 0) {
            steered = true;
            handle.steer("Make it short.");
          }
        },
      },
    );
    await handle.result;
    const spans = tracing.spans();
    const calls = byName(spans, "chat scripted");
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.attributes["gen_ai.response.finish_reasons"])).toContainEqual(["interrupted"]);
    expect(byName(spans, "ai.streamText").map(parentOf).sort()).toEqual(calls.map((call) => call.spanContext().spanId).sort());
  });

  it("start(): errors are recorded on the span that failed, redacted; cancel is an event on the run", async () => {
    const failing = scriptedModel({ text: "partial", error: new Error(`upstream refused key ${CANARY_KEY}`) });
    const run = start(
      <Agent model={failing}>
        <Step id="only" prompt="go" />
      </Agent>,
      { telemetry: true },
    );
    await expect(run.result).rejects.toBeInstanceOf(RunError);
    const spans = tracing.spans();
    const step = one(spans, "june.step");
    const call = one(spans, "chat scripted");
    for (const span of [call, step, one(spans, "june.run")]) {
      expect(span.status.code, span.name).toBe(SpanStatusCode.ERROR);
      expect(span.status.message).toContain("upstream refused key [redacted]");
      expect(span.events.find((event) => event.name === "exception")?.attributes?.["exception.message"]).toContain("[redacted]");
    }
    expect(step.attributes["june.step.status"]).toBe("error");
    expect(spans.map(exported).join("\n")).not.toContain("CANARY");

    tracing.exporter.reset();
    const slow = start(
      <Agent model={scriptedModel({ text: ["a", "b"], delay: 500 })}>
        <Step id="slow" prompt="go" />
      </Agent>,
    );
    setTimeout(() => slow.cancel("stop"), 30);
    await expect(slow.result).rejects.toBeInstanceOf(RunError);
    const runSpan = one(tracing.spans(), "june.run");
    expect(runSpan.attributes["june.run.status"]).toBe("canceled");
    expect(runSpan.status.code).toBe(SpanStatusCode.UNSET);
    expect(runSpan.events.map((event) => event.name)).toEqual(["june.cancel"]);
    expect(one(tracing.spans(), "june.step").attributes["june.step.status"]).toBe("canceled");
  });

  it("a <Step>'s experimental_telemetry replaces its Agent's; a bad telemetry option is a TypeError naming it", async () => {
    const model = scriptedModel(["first", "second"]);
    const run = start(
      <Agent model={model}>
        <Step id="quiet" prompt="one" experimental_telemetry={{ isEnabled: false }} />
        <Step id="loud" prompt="two" experimental_telemetry={{ isEnabled: true, functionId: "loud-step" }} />
      </Agent>,
    );
    await run.result;
    const aiRoots = byName(tracing.spans(), "ai.streamText");
    expect(aiRoots).toHaveLength(1);
    expect(aiRoots[0]!.attributes["ai.telemetry.functionId"]).toBe("loud-step");
    const loud = byName(tracing.spans(), "june.step").find((span) => span.attributes["june.step.id"] === "loud")!;
    expect(parentOf(aiRoots[0]!)).toBe(byName(tracing.spans(), "chat scripted").find((call) => parentOf(call) === loud.spanContext().spanId)!.spanContext().spanId);

    expect(() => start(<Agent model={model} />, { telemetry: { recordInputs: "yes" as never } })).toThrow(/telemetry\.recordInputs must be a boolean/);
    expect(() => createChat({ model, telemetry: { tracer: {} as never } })).toThrow(/createChat\(\{ telemetry \}\): telemetry\.tracer/);
    expect(() => modelResponder({ model })).not.toThrow();
  });

  it("a denied tool: june.approval decided denied, june.tool denied and never approved; a pending approval withdrawn by cancel", async () => {
    const { value, execute } = deployTool();
    const model = scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "prod" }, toolCallId: "call-9" }] }, "Not deployed."]);
    const run = start(
      <Agent model={model}>
        <Tool name="deploy" value={value} />
        <Step id="ship" prompt="ship" />
      </Agent>,
      {
        telemetry: { recordInputs: true },
        onUpdate: () => {
          for (const request of run.requests) run.decide(request.id, { approved: false, reason: `no: ${CANARY_KEY}` });
        },
      },
    );
    await run.result;
    expect(execute).not.toHaveBeenCalled();
    const spans = tracing.spans();
    expect(one(spans, "june.approval").attributes).toMatchObject({ "june.approval.decision": "denied", "june.approval.reason": "no: [redacted]" });
    expect(one(spans, "june.tool").attributes).toMatchObject({ "june.tool.needs_approval": true, "june.tool.approved": false, "june.tool.status": "denied" });

    tracing.exporter.reset();
    const waiting = start(
      <Agent model={scriptedModel([{ toolCalls: [{ toolName: "deploy", input: { env: "prod" } }] }])}>
        <Tool name="deploy" value={deployTool().value} />
        <Step id="ship" prompt="ship" />
      </Agent>,
      { onUpdate: () => void (waiting.requests.length > 0 && waiting.cancel()) },
    );
    await expect(waiting.result).rejects.toBeInstanceOf(RunError);
    const after = tracing.spans();
    expect(one(after, "june.approval").attributes["june.approval.decision"]).toBe("withdrawn");
    expect(one(after, "june.tool").attributes).toMatchObject({ "june.tool.status": "canceled" });
    expect(one(after, "june.tool").attributes["june.tool.approved"]).toBeUndefined();
  });

  it("the library imports @opentelemetry/api only: the SDK and the exporter are the CLI's (src/cli/otlp-export.ts)", () => {
    const src = fileURLToPath(new URL("../", import.meta.url));
    const offenders: string[] = [];
    const apiUsers = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "__fixtures__") walk(path);
        } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          const imports = [...readFileSync(path, "utf8").matchAll(/from "(@opentelemetry\/[^"]+)"/g)].map((m) => m[1]);
          const file = relative(src, path);
          for (const name of imports) {
            if (name === "@opentelemetry/api") apiUsers.add(file);
            else if (file !== join("cli", "otlp-export.ts")) offenders.push(`${file}: ${name}`);
          }
        }
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
    expect(apiUsers).toContain(join("telemetry", "june-span.ts"));
  });

  it("a turn started over HTTP with a traceparent header continues the caller's trace", async () => {
    const chat = createChat({ model: scriptedModel("hi there") });
    const handler = createChatHandler(chat);
    const session = await chat.createSession();
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const parentId = "b7ad6b7169203331";
    const response = await handler(
      new Request(`http://127.0.0.1/sessions/${session.id}/turns`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${traceId}-${parentId}-01` },
        body: JSON.stringify({ input: "hello" }),
      }),
    );
    expect(response.status).toBe(200);
    await response.text();
    const turnSpan = one(tracing.spans(), "june.turn");
    expect(turnSpan.spanContext().traceId).toBe(traceId);
    expect(parentOf(turnSpan)).toBe(parentId);
    expect(parentOf(one(tracing.spans(), "chat scripted"))).toBe(turnSpan.spanContext().spanId);
  });

  it("<Parallel> steps: each model call and each ai.streamText stays under its own step, however the calls interleave", async () => {
    const model = scriptedModel(({ index }) => ({ text: [`a${index} `, `b${index} `, `c${index}`], delay: 5 + (index % 2) * 7 }));
    const run = start(
      <Agent model={model} experimental_telemetry={{ isEnabled: true }}>
        <Parallel>
          <Step id="left" prompt="left" />
          <Step id="middle" prompt="middle" />
          <Step id="right" prompt="right" />
        </Parallel>
      </Agent>,
    );
    await run.result;
    const spans = tracing.spans();
    const steps = byName(spans, "june.step");
    expect(steps).toHaveLength(3);
    for (const step of steps) {
      const [call, ...more] = byName(spans, "chat scripted").filter((span) => parentOf(span) === step.spanContext().spanId);
      expect(more).toEqual([]);
      expect(call!.attributes["june.step.id"]).toBe(step.attributes["june.step.id"]);
      const roots = byName(spans, "ai.streamText").filter((span) => parentOf(span) === call!.spanContext().spanId);
      expect(roots).toHaveLength(1);
    }
  });
});
