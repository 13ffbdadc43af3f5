import { jsonSchema, tool } from "ai";
import { Agent, Step, Tool } from "june";
import { agentResponder, createChat, type Responder } from "june/chat";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../stores/memory-store.js";
import type { TurnStreamEvent } from "./turn-stream-event.js";
import { parseTurnStreamEvent } from "./turn-stream-schema.js";
import { turnStream } from "./turn-stream.js";

const KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz";
const OWN = "ACME-7f3a9c2e11";
const redaction = { patterns: [/ACME-[0-9a-f]{10}/] };

/** A responder that writes `deltas`, then fails with `failure` (or answers with the deltas joined). */
function scripted(deltas: string[], failure?: Error): Responder {
  return {
    respond: () => ({
      events: (async function* () {
        for (const text of deltas) yield { type: "text-delta" as const, text };
      })(),
      result: failure ? Promise.reject(failure) : Promise.resolve({ text: deltas.join("") }),
    }),
  };
}

async function collect(stream: AsyncIterable<{ index: number; event: TurnStreamEvent }>) {
  const out: { index: number; event: TurnStreamEvent }[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("turnStream", () => {
  it("numbers the events from 0, masks a key split across deltas and the user's own patterns, and ends with turn-end", async () => {
    const chat = createChat({ responder: scripted(["key sk-pr", "oj-AbCdEfGhIj", "KlMnOpQrStUvWxYz and ", `${OWN} done`]), store: memoryStore() });
    const turn = (await chat.createSession()).send("hi");
    const items = await collect(turnStream(turn, { redaction }));
    expect(items.map((item) => item.index)).toEqual(items.map((_, i) => i));
    expect(items[0]!.event).toEqual({ type: "turn-start", turnId: turn.id, sessionId: turn.sessionId });
    const text = items.flatMap(({ event }) => (event.type === "text-delta" ? [event.text] : [])).join("");
    expect(text).toBe("key [redacted] and [redacted] done");
    expect(items.at(-1)!.event).toMatchObject({ type: "turn-end", turnId: turn.id, sessionId: turn.sessionId, status: "completed", text: "key [redacted] and [redacted] done" });
    for (const { event } of items) expect(parseTurnStreamEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it("ends a failed turn with its error summary: redacted, file paths hidden, no stack", async () => {
    const failure = new Error(`provider said: bad key ${KEY} (${OWN}) at /home/ann/app/src/index.ts:3`);
    const chat = createChat({ responder: scripted(["partial "], failure), store: memoryStore() });
    const turn = (await chat.createSession()).send("hi");
    const end = (await collect(turnStream(turn, { redaction }))).at(-1)!.event;
    expect(end).toMatchObject({ type: "turn-end", status: "failed", error: { name: "Error" } });
    const serialized = JSON.stringify(end);
    expect(serialized).not.toContain(KEY);
    expect(serialized).not.toContain(OWN);
    expect(serialized).not.toContain("/home/ann");
    expect(serialized).not.toContain("stack");
  });

  it("projects run updates into rows and shows an approval request excerpted, and whole for a UI, both redacted", async () => {
    const deploy = tool({
      description: "Deploy",
      inputSchema: jsonSchema<{ env: string; apiKey: string; note: string }>({ type: "object", properties: { env: { type: "string" } } }),
      needsApproval: true,
      execute: async ({ env }) => `deployed to ${env}`,
    });
    const script = ({ options: call }: ScriptCallInfo): ScriptEntry =>
      call.prompt.at(-1)?.role === "tool" ? "Deployed." : { toolCalls: [{ toolName: "deploy", input: { env: "staging", apiKey: KEY, note: `ref ${OWN}` } }] };
    const model = scriptedModel(script);
    const chat = createChat({
      responder: agentResponder({
        render: ({ input }) => (
          <Agent model={model}>
            <Tool name="deploy" value={deploy} />
            <Step id="work" prompt={input} />
          </Agent>
        ),
        reply: (result) => String(result.steps.work),
      }),
      store: memoryStore(),
    });
    const turn = (await chat.createSession()).send("Deploy");
    const items: TurnStreamEvent[] = [];
    for await (const { event } of turnStream(turn, { redaction })) {
      items.push(event);
      if (event.type === "approval-request") turn.approve(event.request.id);
    }
    const request = items.find((event) => event.type === "approval-request");
    expect(request?.type === "approval-request" && request.request).toMatchObject({
      toolName: "deploy",
      inputValue: { env: "staging", apiKey: "[redacted]", note: "ref [redacted]" },
    });
    expect(request?.type === "approval-request" && typeof request.request.input).toBe("string");
    expect(items.some((event) => event.type === "run-update" && event.rows.length > 0)).toBe(true);
    expect(items.at(-1)).toMatchObject({ type: "turn-end", status: "completed", text: "Deployed." });
    const serialized = JSON.stringify(items);
    expect(serialized).not.toContain(KEY);
    expect(serialized).not.toContain(OWN);
    for (const event of items) expect(() => parseTurnStreamEvent(JSON.parse(JSON.stringify(event)))).not.toThrow();
  });
});
