// A durable agent chat whose "work" step asks to run one tool of an MCP server (needs approval), then answers
// from its result, and whose streamed "reply" step tells the user that answer (a streamed step calls no tools:
// issue 41); for durable-mcp.test.tsx and its child process. The model is scripted from what it is sent, so a
// resumed turn gets the same answers.
import type { ModelMessage } from "ai";
import { Agent, McpTools, Step, type McpServerSpec } from "../../index.js";
import { agentResponder, createChat, type ChatStore } from "../../chat/index.js";
import { scriptedModel, type ScriptEntry } from "../../testing/index.js";

/** In the call's input: no byte of it may stay in the store after the turn. */
export const SECRET = "tok-5b2d9e7a-mcp-note";

/** The "reply" step's prompt, before the "work" step's answer it repeats. */
const TELL = "Tell the user: ";

export interface McpChatOptions {
  store: ChatStore;
  server: McpServerSpec;
  suspendAfterMs?: number;
  /** The fixture server's tool the model calls: `note_save` (default) or `slow` (waits 10 s: a call to die in). */
  tool?: "note_save" | "slow";
}

export function mcpChat({ store, server, suspendAfterMs = Infinity, tool = "note_save" }: McpChatOptions) {
  const model = scriptedModel(({ options }): ScriptEntry => {
    const prompt = options.prompt as unknown as ModelMessage[];
    const asked = prompt.at(-1);
    if (asked?.role === "user") {
      const text = typeof asked.content === "string" ? asked.content : asked.content.map((p) => ("text" in p ? p.text : "")).join("");
      if (text.startsWith(TELL)) return text.slice(TELL.length);
    }
    const result = prompt
      .filter((m) => m.role === "tool")
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((p) => p.type === "tool-result") as { output?: { type: string; value?: unknown } } | undefined;
    if (!result) {
      const input = tool === "slow" ? { ms: 10_000, note: SECRET } : { text: `remember ${SECRET}` };
      return { toolCalls: [{ toolName: tool, input, toolCallId: "call-mcp" }] };
    }
    if (result.output?.type === "execution-denied") return "Not done.";
    const output = JSON.stringify(result.output?.value);
    return output.includes("saved note 1") ? "Saved: note 1." : `Done: ${output}.`;
  });
  return createChat({
    store,
    responder: agentResponder({
      id: "mcp-worker",
      version: "1",
      durable: { suspendAfterMs },
      render: ({ messages, input }) => (
        <Agent model={model}>
          <McpTools name="fixture" server={server} needsApproval={[tool]} />
          <Step id="work" prompt={[...messages, { role: "user", content: input }]} />
          <Step id="reply" stream prompt={(ctx) => `${TELL}${String(ctx.steps.work)}`} />
        </Agent>
      ),
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
  });
}
