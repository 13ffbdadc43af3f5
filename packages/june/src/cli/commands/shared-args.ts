import type { ArgsDef } from "citty";

const MODEL_PROVIDERS_HINT = "openai:ID, anthropic:ID, google:ID, ollama:ID, openai-compatible:ID (default: JUNE_MODEL)";
const BASE_URL = {
  type: "string",
  valueHint: "url",
  description: "The provider's base URL (needed for openai-compatible:ID, e.g. http://127.0.0.1:1234/v1)",
} as const;

/** `--model` and `--base-url` for a chat: a model chat with no module, or the model a chat factory is given. */
export const modelArgs = {
  model: {
    type: "string",
    valueHint: "provider:id",
    description: `The model: ${MODEL_PROVIDERS_HINT}. With no file, a chat with it; with a file whose default export is a function ({ model }) => Chat | Responder, passed to it`,
  },
  "base-url": BASE_URL,
} as const satisfies ArgsDef;

/** `--model` and `--base-url` for `june run`: the model a component is given as `{ model }`. */
export const runModelArgs = {
  model: {
    type: "string",
    valueHint: "provider:id",
    description: `The model, passed to the component as { model }: ${MODEL_PROVIDERS_HINT}`,
  },
  "base-url": BASE_URL,
} as const satisfies ArgsDef;

/** `--store`: where sessions live. */
export const storeArg = {
  store: {
    type: "string",
    valueHint: "dir",
    description: "Where sessions are kept, one JSONL file each (default: .june/chat; a module exporting a Chat keeps its own store)",
  },
} as const satisfies ArgsDef;

/** `--json`, `--yes`, `--deny`: how a turn or run is shown and approved. */
export const turnArgs = {
  json: { type: "boolean", description: "Print every event as one JSON line on stdout instead of the reply" },
  yes: { type: "boolean", alias: "y", description: "Approve every tool call that asks for approval" },
  deny: { type: "boolean", description: "Deny every tool call that asks for approval" },
} as const satisfies ArgsDef;

/** `--reasoning`: show the model's reasoning (dimmed, on stderr) as it thinks. */
export const reasoningArg = {
  reasoning: { type: "boolean", description: "Show the model's reasoning (thinking, reasoning summaries), dimmed on stderr, before its reply" },
} as const satisfies ArgsDef;

/** `--session`: continue a session. */
export const sessionArg = {
  session: { type: "string", valueHint: "id", description: "Continue this session (its id is printed on stderr)" },
} as const satisfies ArgsDef;

/** `--mcp`: an MCP server whose tools the chat's model (or the module's agents) may call; repeatable. */
export const mcpArg = {
  mcp: {
    type: "string",
    valueHint: "command|url",
    description:
      'An MCP server whose tools every model step may call, each call approved on stderr (or by --yes): a command line ("npx some-server", over stdio) or a Streamable HTTP URL; repeat for more',
  },
} as const satisfies ArgsDef;
