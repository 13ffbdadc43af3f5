import { resolve as resolvePath } from "node:path";
import { createChat } from "../chat/create-chat.js";
import type { Chat, Session } from "../chat/types.js";
import type { McpConnections } from "../mcp/connections.js";
import { fileStore } from "../stores/file-store.js";
import { InvalidSessionIdError, SessionNotFoundError } from "../stores/errors.js";
import { CliUsageError } from "./errors.js";
import { findSessionById, sessionIdProblem } from "./session-id.js";
import type { CliIO } from "./io.js";
import { callChatFactory, loadChatModule, type ChatFactoryResult } from "./load-module.js";
import { chosenModelSpec, createModel, parseModelSpec, preloadProvider, type ModelSpec } from "./models.js";

/** Said when a module's chat keeps its sessions in memory: the printed session id cannot be continued. */
export const EPHEMERAL_NOTE =
  "this chat keeps its sessions in memory: they end with this process and --session cannot continue them (give createChat a store, e.g. fileStore(\".june/chat\"))";

/** Where `june chat`, `ask`, `studio` and `sessions` keep sessions unless `--store` says otherwise. */
export const DEFAULT_STORE_DIR = ".june/chat";

export interface ResolveChatOptions {
  io: CliIO;
  /** The chat module, if one was given. */
  file?: string;
  /** `--model PROVIDER:ID`. */
  model?: string;
  /** `--base-url`. */
  baseUrl?: string;
  /** `--store DIR`. */
  store?: string;
  /** The command, for messages. */
  command: string;
  /** The servers `--mcp` names: a model chat then runs as a one-step workflow that can call their tools. */
  mcp?: McpConnections;
}

/** The chat a command talks to, and where it came from. */
export interface ResolvedChat {
  chat: Chat;
  /** `FILE`, or `PROVIDER:ID` for a model chat. */
  label: string;
  /** The store directory, when the CLI made the store. */
  storeDir?: string;
  /** The `--model` (or `JUNE_MODEL`) the chat runs on, when the CLI made the model. */
  model?: ChosenModel;
}

/** The model the CLI made from `--model`: its spec and the `--base-url` given with it. */
export interface ChosenModel {
  spec: ModelSpec;
  baseUrl?: string;
}

/**
 * The chat for `june chat`, `ask` and `studio`:
 * - a module exporting a `Chat` is used as it is, with its own store (then `--store` is a usage error);
 * - a module exporting a `Responder` is made a chat with a `fileStore` in `--store` (default `.june/chat`);
 * - a module exporting a `ChatFactory` (a function) is called with `{ model }` from `--model` (or
 *   `JUNE_MODEL`), or `{}` with neither; what it returns is used as above;
 * - no module: a model chat with `--model` (or `JUNE_MODEL`), in the same store.
 * `--model` with a module exporting a `Chat` or a `Responder` is a usage error: nothing can reach its model.
 */
export async function resolveChat(options: ResolveChatOptions): Promise<ResolvedChat> {
  const resolved = await resolveChatOnly(options);
  if (options.mcp && options.file !== undefined && resolved.chat.responder.kind === "model") {
    throw new CliUsageError(`--mcp: ${options.file}'s chat is a model chat, which calls no tools; answer with an agentResponder to use MCP tools`);
  }
  return resolved;
}

async function resolveChatOnly(options: ResolveChatOptions): Promise<ResolvedChat> {
  const { io, file, command } = options;
  const storeDir = resolvePath(io.cwd, options.store ?? DEFAULT_STORE_DIR);
  const spec = chosenModelSpec({ model: options.model, baseUrl: options.baseUrl, env: io.env });
  const modelOf = (text: string) => createModel({ spec: parseModelSpec(text), env: io.env, baseUrl: options.baseUrl });
  if (file !== undefined) {
    // The provider package is imported before the module, so it does not load through the module hooks.
    await preloadProvider(spec);
    const loaded = await loadChatModule({ file, cwd: io.cwd });
    if (loaded.kind !== "factory") {
      // An explicit --model (or --base-url) that the module cannot take; JUNE_MODEL, set for every chat, is not one.
      const flag = options.model !== undefined ? "--model" : options.baseUrl !== undefined ? "--base-url" : undefined;
      if (flag !== undefined) throw modelUnreachable({ file, flag, exported: loaded.kind });
      return fromExport({ made: loaded, file, label: file, store: options.store, storeDir });
    }
    const model = spec === undefined ? undefined : await modelOf(spec);
    const made = await callChatFactory({ file, factory: loaded.factory, model });
    const resolved = fromExport({ made, file, label: spec === undefined ? file : `${file} on ${spec}`, store: options.store, storeDir });
    return spec === undefined ? resolved : { ...resolved, model: chosen(spec) };
  }
  if (spec === undefined) {
    throw new CliUsageError(
      `Nothing to ${command === "studio" ? "serve" : "talk to"}: pass a chat module (june ${command} chat.tsx) or a model (--model openai:gpt-5-mini, or set JUNE_MODEL)`,
    );
  }
  const model = await modelOf(spec);
  if (options.mcp) {
    const { toolUsingModelResponder } = await import("./mcp-flags.js");
    return { chat: createChat({ responder: toolUsingModelResponder(model), store: fileStore(storeDir) }), label: spec, storeDir, model: chosen(spec) };
  }
  return { chat: createChat({ model, store: fileStore(storeDir) }), label: spec, storeDir, model: chosen(spec) };

  function chosen(text: string): ChosenModel {
    return { spec: parseModelSpec(text), ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }) };
  }
}

/** A module's `Chat` as it is, or its `Responder` made a chat in the store directory. */
function fromExport(options: {
  made: ChatFactoryResult;
  file: string;
  label: string;
  store: string | undefined;
  storeDir: string;
}): ResolvedChat {
  const { made, file, label, storeDir } = options;
  switch (made.kind) {
    case "chat":
      if (options.store !== undefined) {
        throw new CliUsageError(
          `--store applies only to a Responder or a --model chat: ${file} makes a Chat with its own store`,
        );
      }
      return { chat: made.chat, label };
    case "responder":
      return { chat: createChat({ responder: made.responder, store: fileStore(storeDir) }), label, storeDir };
    default: {
      const unreachable: never = made;
      throw new TypeError(`Unknown module export ${String((unreachable as { kind: unknown }).kind)}`);
    }
  }
}

/** `--model` given with a module that exports a `Chat` or a `Responder`: says how to make it take one. */
export function modelUnreachable(options: { file: string; flag: string; exported: "chat" | "responder" }): CliUsageError {
  const { file, flag } = options;
  const [what, make] = options.exported === "chat" ? ["a Chat", "createChat(...)"] : ["a Responder", "agentResponder(...)"];
  return new CliUsageError(
    `${file} exports ${what}, so ${flag} cannot reach it: export a function ({ model }) => ${make} instead`,
  );
}

/** Opens `--session ID` (an id or a prefix only one session has), or creates a new session. An unknown id is a usage error. */
export async function openOrCreateSession(chat: Chat, sessionId: string | undefined): Promise<Session> {
  if (sessionId === undefined) return chat.createSession();
  return openSessionById(chat, sessionId, "--session: ");
}

/** Opens the session an id, or a prefix only one session has, names; a usage error (with `lead` before it) when none does. */
export async function openSessionById(chat: Chat, text: string, lead = ""): Promise<Session> {
  const found = await findSessionById(chat.store, text);
  if (found !== "missing" && "ambiguous" in found) throw new CliUsageError(`${lead}${sessionIdProblem(text, found, "this chat's store")}`);
  try {
    // Nothing starts with it: opening it as given says what is wrong with it, in the store's own words.
    return await chat.openSession(found === "missing" ? text : found.id);
  } catch (error) {
    if (SessionNotFoundError.isInstance(error) || InvalidSessionIdError.isInstance(error)) {
      throw new CliUsageError(`${lead}${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}
