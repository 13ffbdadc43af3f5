import type { ArgsDef } from "citty";

/** `--model` and `--base-url`: a model chat with no module. */
export const modelArgs = {
  model: {
    type: "string",
    valueHint: "provider:id",
    description:
      "Chat with a model, no module needed: openai:ID, anthropic:ID, google:ID, ollama:ID, openai-compatible:ID (default: JUNE_MODEL). Not with a file: the module chooses its own model",
  },
  "base-url": {
    type: "string",
    valueHint: "url",
    description: "The provider's base URL (needed for openai-compatible:ID, e.g. http://127.0.0.1:1234/v1)",
  },
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

/** `--session`: continue a session. */
export const sessionArg = {
  session: { type: "string", valueHint: "id", description: "Continue this session (its id is printed on stderr)" },
} as const satisfies ArgsDef;
