// A held reply (an output guardrail with `stream: "hold"`) that writes text before asking for an approval:
// none of that text may leave before the reply's checks pass, in any event (the turn's own, SSE, replay) or span.
import { jsonSchema, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, memoryStore, type Turn } from "june/chat";
import { createChatHandler } from "june/server";
import { scriptedModel } from "june/testing";
import { memoryTracing } from "../telemetry/__fixtures__/memory-tracing.js";
import { listen, post } from "../server/__fixtures__/servers.js";
import { sseEvents, type SseEvent } from "../server/__fixtures__/sse-client.js";

const tracing = memoryTracing();
afterEach(() => tracing.exporter.reset());

const HELD = "HELD-WORDS sk-4242";

function heldChat(recordInputs = false) {
  const model = scriptedModel([{ text: [`${HELD} `, "then deploying."], toolCalls: [{ toolName: "deploy", input: { env: "staging" }, toolCallId: "c1" }] }, "Deployed, key sk-4242."]);
  const deploy = tool({ description: "Deploy", inputSchema: jsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }), needsApproval: true, execute: async () => "ok" });
  return createChat({
    store: memoryStore(),
    telemetry: { recordOutputs: true, recordInputs },
    responder: agentResponder({
      render: ({ input }) => (
        <Agent model={model}>
          <Tool name="deploy" value={deploy} />
          <Step id="reply" prompt={input} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
    }),
    guardrails: { output: [{ name: "no-keys", stream: "hold", check: ({ text }) => (text.includes("sk-4242") ? "The reply holds a key" : undefined) }] },
  });
}

function spansText(): string {
  return JSON.stringify(tracing.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events.map((e) => e.attributes) })));
}

describe("a held reply that asks for an approval", () => {
  it("with recordInputs too: no span records it (a later call's input holds what an earlier call wrote)", async () => {
    const chat = heldChat(true);
    const session = await chat.createSession();
    const turn: Turn = session.send("ship");
    for await (const event of turn) if (event.type === "approval-request") turn.approve(event.request.id);
    expect(turn.status).toBe("blocked");
    await tracing.provider.forceFlush();
    expect(tracing.spans().some((span) => span.name === "june.turn")).toBe(true);
    expect(spansText()).not.toContain("HELD-WORDS");
    expect(spansText()).not.toContain("sk-4242");
  });

  it("sends none of its text in the turn's run updates, and no span records it; the turn ends blocked", async () => {
    const chat = heldChat();
    const session = await chat.createSession();
    const turn: Turn = session.send("ship");
    const events: unknown[] = [];
    for await (const event of turn) {
      events.push(event);
      if (event.type === "approval-request") {
        expect(JSON.stringify(events)).not.toContain("HELD-WORDS");
        turn.approve(event.request.id);
      }
    }
    expect(turn.status).toBe("blocked");
    expect(events.some((e) => (e as { type: string }).type === "approval-request")).toBe(true);
    expect(events.some((e) => (e as { type: string }).type === "run-update")).toBe(true);
    expect(JSON.stringify(events)).not.toContain("HELD-WORDS");
    expect(JSON.stringify(events)).not.toContain("sk-4242");
    await tracing.provider.forceFlush();
    expect(tracing.spans().some((span) => span.name === "june.turn")).toBe(true);
    expect(spansText()).not.toContain("HELD-WORDS");
    expect(spansText()).not.toContain("sk-4242");
  });

  it("over HTTP: neither the turn's SSE nor its replay holds the text", async () => {
    const chat = heldChat();
    const base = await listen(createChatHandler(chat));
    const session = await chat.createSession();
    const response = await post(`${base}/sessions/${session.id}/turns`, { input: "ship" });
    const events: SseEvent[] = [];
    let turnId = "";
    for await (const event of sseEvents(response)) {
      events.push(event);
      if (event.event === "turn-start") turnId = event.data.turnId;
      if (event.event === "approval-request") {
        const ok = await post(`${base}/sessions/${session.id}/turns/${turnId}/approve`, { approvalId: event.data.request.id });
        expect(ok.status).toBe(200);
        await ok.text();
      }
    }
    expect(events.map((e) => e.event)).toContain("run-update");
    expect(events.at(-1)).toMatchObject({ event: "turn-end", data: { status: "blocked" } });
    expect(JSON.stringify(events)).not.toContain("HELD-WORDS");
    const replay = await fetch(`${base}/turns/${turnId}/events`);
    expect(replay.status).toBe(200);
    const replayed = await replay.text();
    expect(replayed).toContain("run-update");
    expect(replayed).not.toContain("HELD-WORDS");
    await tracing.provider.forceFlush();
    expect(spansText()).not.toContain("HELD-WORDS");
  });
});
