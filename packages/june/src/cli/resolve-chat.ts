import { resolve as resolvePath } from "node:path";
import { createChat } from "../chat/create-chat.js";
import type { Chat, Session } from "../chat/types.js";
import { JuneError } from "../errors/june-error.js";
import { fileStore } from "../stores/file-store.js";
import { CliUsageError } from "./errors.js";
import type { CliIO } from "./io.js";
import { loadChatModule } from "./load-module.js";
import { createModel, parseModelSpec } from "./models.js";

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
}

/** The chat a command talks to, and where it came from. */
export interface ResolvedChat {
  chat: Chat;
  /** `FILE`, or `PROVIDER:ID` for a model chat. */
  label: string;
  /** The store directory, when the CLI made the store. */
  storeDir?: string;
}

/**
 * The chat for `june chat`, `ask` and `studio`:
 * - a module exporting a `Chat` is used as it is, with its own store (then `--store` is a usage error);
 * - a module exporting a `Responder` is made a chat with a `fileStore` in `--store` (default `.june/chat`);
 * - no module: a model chat with `--model` (or `JUNE_MODEL`), in the same store.
 * A file and `--model` together are a usage error: the module chooses its own model.
 */
export async function resolveChat(options: ResolveChatOptions): Promise<ResolvedChat> {
  const { io, file, command } = options;
  const storeDir = resolvePath(io.cwd, options.store ?? DEFAULT_STORE_DIR);
  if (file !== undefined) {
    if (options.model !== undefined || options.baseUrl !== undefined) {
      const flag = options.model !== undefined ? "--model" : "--base-url";
      throw new CliUsageError(`${flag} applies only without a file: ${file} chooses its own model`);
    }
    const loaded = await loadChatModule({ file, cwd: io.cwd });
    switch (loaded.kind) {
      case "chat":
        if (options.store !== undefined) {
          throw new CliUsageError(
            `--store applies only to a Responder or a --model chat: ${file} exports a Chat with its own store`,
          );
        }
        return { chat: loaded.chat, label: file };
      case "responder":
        return { chat: createChat({ responder: loaded.responder, store: fileStore(storeDir) }), label: file, storeDir };
      default: {
        const unreachable: never = loaded;
        throw new TypeError(`Unknown module export ${String((unreachable as { kind: unknown }).kind)}`);
      }
    }
  }
  const spec = options.model ?? nonEmpty(io.env.JUNE_MODEL);
  if (spec === undefined) {
    throw new CliUsageError(
      `Nothing to ${command === "studio" ? "serve" : "talk to"}: pass a chat module (june ${command} chat.tsx) or a model (--model openai:gpt-5-mini, or set JUNE_MODEL)`,
    );
  }
  const model = createModel({ spec: parseModelSpec(spec), env: io.env, baseUrl: options.baseUrl });
  return { chat: createChat({ model, store: fileStore(storeDir) }), label: spec, storeDir };
}

/** Opens `--session ID`, or creates a new session. An unknown id is a usage error. */
export async function openOrCreateSession(chat: Chat, sessionId: string | undefined): Promise<Session> {
  if (sessionId === undefined) return chat.createSession();
  try {
    return await chat.openSession(sessionId);
  } catch (error) {
    if (JuneError.hasName(error, "SessionNotFoundError") || JuneError.hasName(error, "InvalidSessionIdError")) {
      throw new CliUsageError(`--session: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
