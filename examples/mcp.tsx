/** @jsxRuntime automatic */
/** @jsxImportSource june */
/**
 * An offline June chat whose tools come from an MCP server: a small notepad server written with the official
 * MCP SDK (packages/june/src/mcp/__fixtures__/stdio-server.mjs), started over stdio by `<McpTools>`. No API key,
 * no network: the model is `scriptedModel` from `june/testing`.
 *
 *   npm ci -w june --ignore-scripts && npm run build -w june
 *   npx june ask examples/mcp.tsx "Remember to water the plants" --yes
 *   npx june chat examples/mcp.tsx       # "remember ...", then "what are my notes?", "what is 2 + 3?"
 *
 * Saving a note asks for approval (`needsApproval={["note_save"]}`); reading them does not. The chat keeps one
 * client for its life (`createChat({ mcp })`), so in `june chat` the notes are still there on the next turn;
 * without `mcp`, each turn would start (and stop) a server of its own. `--model` runs the same chat on a real
 * model: `OPENAI_API_KEY=sk-... npx june chat examples/mcp.tsx --model openai:gpt-5-mini`.
 */
import { fileURLToPath } from "node:url";
import type { LanguageModel, ModelMessage } from "ai";
import { Agent, McpTools, Step, mcpConnections } from "june";
import { agentResponder, createChat, fileStore, type Chat, type ChatFactoryOptions } from "june/chat";
import { scriptedModel, type ScriptCallInfo, type ScriptEntry } from "june/testing";

const notesServer = {
  command: process.execPath,
  args: [fileURLToPath(new URL("../packages/june/src/mcp/__fixtures__/stdio-server.mjs", import.meta.url))],
};

type PromptMessage = ScriptCallInfo["options"]["prompt"][number];

function textOf(message: PromptMessage | undefined): string {
  if (!message || typeof message.content === "string") return message?.content ?? "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** What the last tool call came to, when the model is called right after one. */
function toolOutcome(prompt: readonly PromptMessage[]): string | undefined {
  const last = prompt.at(-1);
  if (last?.role !== "tool") return undefined;
  const part = last.content.find((p) => p.type === "tool-result");
  if (!part || part.type !== "tool-result") return undefined;
  const output = part.output;
  if (output.type === "execution-denied") return `I did not save it (${output.reason ?? "denied"}).`;
  if (output.type === "error-text" || output.type === "text") return output.value;
  if (output.type === "content") return output.value.map((v) => (v.type === "text" ? v.text : "")).join("\n");
  return JSON.stringify(output.value);
}

/** The "reply" step's prompt, before the "work" step's answer it repeats. */
const TELL = "Tell the user, in your own words: ";

/** The scripted assistant: picks a tool of the notepad server from the words of the input. */
function assistant({ options }: ScriptCallInfo): ScriptEntry {
  const input = textOf(options.prompt.filter((m) => m.role === "user").at(-1));
  // The streamed "reply" step: it tells what the "work" step found, word by word.
  if (input.startsWith(TELL)) return { text: input.slice(TELL.length).split(/(?<= )/).map((word) => ({ text: word, delay: 30 })) };
  const outcome = toolOutcome(options.prompt);
  if (outcome !== undefined) return outcome;
  const remember = /\bremember (?:to |that )?(.+)/i.exec(input);
  if (remember && !/\?\s*$/.test(input)) return { toolCalls: [{ toolName: "note_save", input: { text: remember[1]!.trim() } }] };
  if (/\bnotes?\b|\bremember\b/i.test(input)) return { toolCalls: [{ toolName: "note_list", input: {} }] };
  const sum = /(-?\d+(?:\.\d+)?)\s*\+\s*(-?\d+(?:\.\d+)?)/.exec(input);
  if (sum) return { toolCalls: [{ toolName: "add", input: { a: Number(sum[1]), b: Number(sum[2]) } }] };
  return 'I keep notes: say "remember ..." or ask "what are my notes?" (I can add numbers too).';
}

const offlineModel = scriptedModel(assistant, { provider: "offline", modelId: "scripted-notes" });

function Notes({ model, messages, input }: { model: LanguageModel; messages: ModelMessage[]; input: string }) {
  return (
    <Agent model={model} instructions="You keep the user's notes with the notepad tools. Be brief.">
      {/* A streamed step calls no tools: the notepad's tools serve the "work" step alone, and "reply" streams its answer. */}
      <Step id="work" prompt={[...messages, { role: "user", content: input }]}>
        <McpTools name="notepad" server={notesServer} include={["note_save", "note_list", "add"]} needsApproval={["note_save"]} />
      </Step>
      <Step id="reply" stream prompt={(ctx) => `${TELL}${String(ctx.steps.work)}`} />
    </Agent>
  );
}

/** A chat factory (`--model` replaces the scripted model), one notepad server for the chat's life. */
export default function notesChat({ model = offlineModel }: ChatFactoryOptions = {}): Chat {
  return createChat({
    responder: agentResponder({
      id: "offline-notes",
      version: "1",
      render: ({ messages, input }) => <Notes model={model} messages={messages} input={input} />,
      reply: (result) => String(result.steps.reply),
      stream: { step: "reply" },
    }),
    store: fileStore(".june/chat"),
    mcp: mcpConnections(),
  });
}
