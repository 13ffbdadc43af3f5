// A durable agent chat whose reply step calls a two-step sub-agent as a tool (`<Tool agent>`): the sub-agent's
// "outline" step writes an outline, its "notes" step asks to run `fetchPage` (needs approval) and sums up, and
// the front step answers from that. Models are scripted from what they are sent, so a resumed turn gets the same answers; every
// model call and every execution of the tool is appended to a log file, so a test can count them across
// processes. Run as a child process (`node --import tsx`), argv `<store dir> <session id> <log>`: it sends one
// turn, prints {"event":"waiting","turnId","requestId"} once the approval is asked and checkpointed, and waits
// to be killed.
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { jsonSchema, tool, type ModelMessage } from "ai";
import { Agent, Step, Tool } from "../../index.js";
import { agentResponder, createChat, type ChatStore } from "../index.js";
import { scriptedModel, type ScriptEntry } from "../../testing/index.js";

const sent = (prompt: unknown) => JSON.stringify(prompt as ModelMessage[]);

export function subAgentChat(options: { store: ChatStore; log?: string }) {
  const log = (line: string) => {
    if (options.log) appendFileSync(options.log, `${line}\n`);
  };
  const sub = scriptedModel(({ options: call }): ScriptEntry => {
    const prompt = sent(call.prompt);
    if (prompt.includes("Make an outline")) {
      log("sub outline");
      return { text: "Outline: light, air.", usage: { inputTokens: 3, outputTokens: 2 } };
    }
    if (prompt.includes("tool-result")) {
      log("sub notes-answer");
      return { text: "Summary: Rayleigh scattering.", usage: { inputTokens: 5, outputTokens: 4 } };
    }
    log("sub notes-ask");
    return { text: "Fetching.", toolCalls: [{ toolName: "fetchPage", input: { url: "https://example.com/sky" }, toolCallId: "call-fetch" }], usage: { inputTokens: 4, outputTokens: 3 } };
  }, { modelId: "researcher" });
  const front = scriptedModel(({ options: call }): ScriptEntry => {
    const prompt = sent(call.prompt);
    if (prompt.includes("Summary: Rayleigh scattering.")) {
      log("front answer");
      return { text: "It is Rayleigh scattering.", usage: { inputTokens: 20, outputTokens: 5 } };
    }
    log("front ask");
    return { text: "Let me research.", toolCalls: [{ toolName: "research", input: { topic: "the sky" }, toolCallId: "call-research" }], usage: { inputTokens: 10, outputTokens: 1 } };
  }, { modelId: "front" });
  const fetchPage = tool({
    description: "Fetch a page",
    inputSchema: jsonSchema<{ url: string }>({ type: "object", properties: { url: { type: "string" } }, required: ["url"] }),
    needsApproval: true,
    execute: async ({ url }) => {
      log(`fetch ${url}`);
      return `page at ${url}: the sky scatters blue light`;
    },
  });
  const Researcher = ({ topic }: { topic: string }) => (
    <Agent model={sub} name="Researcher">
      <Tool name="fetchPage" value={fetchPage} />
      <Step id="outline" prompt={`Make an outline of ${topic}`} />
      <Step id="notes" prompt={(ctx) => `Research ${topic} following: ${String(ctx.steps.outline)}`} />
    </Agent>
  );
  const responder = agentResponder({
    id: "front",
    version: "1",
    durable: { suspendAfterMs: Infinity },
    render: ({ input }) => (
      <Agent model={front}>
        <Tool
          name="research"
          description="Research a topic"
          inputSchema={jsonSchema<{ topic: string }>({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] })}
          agent={({ topic }) => <Researcher topic={topic} />}
        />
        <Step id="answer" prompt={input} />
      </Agent>
    ),
    reply: (result) => String(result.steps.answer),
  });
  return createChat({ store: options.store, responder });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir, sessionId, logFile] = process.argv.slice(2) as [string, string, string];
  const { fileStore } = await import("../../stores/file-store.js");
  const store = fileStore(dir);
  const chat = subAgentChat({ store, log: logFile });
  const session = await chat.openSession(sessionId);
  const turn = session.send("Why is the sky blue?");
  for await (const event of turn) {
    if (event.type !== "approval-request") continue;
    for (;;) {
      const stored = await store.getCheckpoint!(sessionId, turn.id);
      if (stored?.data.includes(event.request.id)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    process.stdout.write(`${JSON.stringify({ event: "waiting", turnId: turn.id, requestId: event.request.id, stepId: event.request.stepId })}\n`);
    break;
  }
  await new Promise<void>(() => {});
}
