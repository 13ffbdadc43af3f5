/**
 * An e2e fixture: a module exporting a Chat (made with createChat, its own memory store) whose agent has no tools
 * of its own. Its scripted model calls `echo` with the input, then answers with what the tool returned, so
 * `june ask echo-agent.tsx --mcp "node stdio-server.mjs"` shows that --mcp reached the module's agents.
 */
import { Agent, Step } from "june";
import { agentResponder, createChat } from "june/chat";
import { scriptedModel } from "june/testing";

const model = scriptedModel(({ options }) => {
  const last = options.prompt.at(-1);
  if (last?.role === "tool") {
    const part = last.content.find((p) => p.type === "tool-result");
    const output = part?.type === "tool-result" ? part.output : undefined;
    if (output?.type === "content") return `echoed: ${output.value.map((v) => (v.type === "text" ? v.text : "")).join("")}`;
    if (output?.type === "execution-denied") return "the echo was denied";
    return `tool output: ${JSON.stringify(output)}`;
  }
  const tools = (options.tools ?? []).map((t) => t.name);
  if (!tools.includes("echo")) return `no echo tool (tools: ${tools.join(", ") || "none"})`;
  const input = last?.role === "user" && typeof last.content !== "string" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
  return { toolCalls: [{ toolName: "echo", input: { text: input } }] };
});

export default createChat({
  responder: agentResponder({
    render: ({ messages, input }) => (
      <Agent model={model}>
        <Step id="reply" prompt={[...messages, { role: "user", content: input }]} />
      </Agent>
    ),
    reply: (result) => String(result.steps.reply),
  }),
});
