import { randomUUID } from "node:crypto";
import type { LanguageModel } from "ai";
import { isMcpConnections } from "../mcp/connections-brand.js";
import type { McpConnections } from "../mcp/connections.js";
import type { CallSettings } from "../runtime/types.js";
import { assertSessionId, SessionNotFoundError } from "../stores/errors.js";
import { memoryStore } from "../stores/index.js";
import { canOpenJournal, openJournal } from "../stores/journal-open.js";
import type { ChatStore, ListSessionsOptions, SessionInfo } from "../stores/types.js";
import { fullContext } from "./context/full-context.js";
import { durableSettings } from "./durable/checkpoint-codec.js";
import { DEFAULT_MAX_INPUT_CHARS } from "./input.js";
import { resolveFileLimits, type FilesOption } from "./files/turn-input.js";
import { modelResponder } from "./responders/model/model-responder.js";
import { JournaledSession, type SessionHost } from "./session.js";
import { SessionJournal } from "./session-journal.js";
import type { TurnController } from "./turn.js";
import { responderProvenance } from "./turn-metadata.js";
import { checkPrices, type Prices } from "../cost/price.js";
import { checkBudget, type Budget } from "../cost/budget.js";
import { resolveTelemetry, type TelemetryOption } from "../telemetry/options.js";
import { validateGuardrails } from "../guardrails/check.js";
import { unstorableText } from "../stores/journal-entries.js";
import { guardedResponder } from "./guarded-responder.js";
import type { Guardrails } from "../guardrails/types.js";
import type { ToolApprovalPolicy } from "../runtime/tool-approval.js";
import type { Chat, ContextBuilder, Responder, Session } from "./types.js";
import { isTurnQueue, type TurnQueue } from "./queue/queue.js";
import { chatSchedules } from "./queue/schedules.js";
import { ChatMemory } from "./memory/chat-memory.js";
import { resolveMemoryOptions, type ChatMemoryOptions } from "./memory/memory-options.js";
import { withToolSources } from "../runtime/run-sources.js";

/** Options every chat takes, whatever answers it. */
export interface ChatOptions {
  /** Where sessions live. Default: `memoryStore()`. */
  store?: ChatStore;
  /** What earlier turns every responder sees. Default: `fullContext()`. */
  context?: ContextBuilder;
  /** Makes session and turn ids. Default: random UUIDs. Session ids must be 1 to 128 letters, digits, `-` or `_`. */
  idGenerator?: (kind: "session" | "turn") => string;
  /** The longest input a turn (or a steer) takes, in characters. Default: 1,000,000. */
  maxInputChars?: number;
  /**
   * What the journal keeps beyond the reply (whose sources it always keeps): `reasoning: true` journals the
   * model's reasoning with it (off by default: it is large, and may say what the reply does not). Journaled
   * reasoning is shown after a reload; it is never sent back to the model. See docs/reasoning.md.
   */
  journal?: { reasoning?: boolean };
  /**
   * What a turn's files may be (`session.send({ text, files })`): `maxBytes` per file (default 10 MiB),
   * `maxFiles` in a turn (10), `mediaTypes` (images png, jpeg, gif and webp, `application/pdf`, `text/*`) and
   * `allowUrl` (false: a server refuses a file given by URL rather than fetch it). `false` takes no file.
   * A file past them is refused with a `FileRejectedError`, before anything is stored. See docs/files.md.
   */
  files?: FilesOption;
  /**
   * OpenTelemetry spans of every turn (`june.turn` > the responder's run or model calls). Left out or `true`:
   * to the registered tracer provider, if any (none: nothing is recorded); `false`: none; or
   * `{ tracer, recordInputs, recordOutputs, maxContentChars }`. See docs/telemetry.md.
   */
  telemetry?: TelemetryOption;
  /**
   * MCP clients kept for the chat's life (`mcpConnections()`) instead of one per turn: every turn's workflow
   * connects its `<McpTools>` through them, and gets their `tools`. Close them with `mcp.close()` when done.
   */
  mcp?: McpConnections;
  /**
   * Your prices by model id, USD per million tokens (`{ "gpt-4o-mini": { input, output, cacheRead?, cacheWrite? } }`);
   * they win over the catalog's. Each turn's `metadata.cost` prices its usage. See docs/cost.md.
   */
  prices?: Prices;
  /**
   * Budgets (`{ turn?, session? }`, each `{ usd?, tokens? }`): when what a turn (or the session's turns together)
   * spent has reached one as the turn's next model call would start, the turn stops there and fails with a
   * `BudgetExceededError`; a call in flight always finishes. See docs/cost.md.
   */
  budget?: Budget;
  /**
   * Checks around every turn: `input` (the user's input, before the responder answers), `output` (the reply,
   * held until it passes or checked at its end: `stream`), `tool` (each tool call's input before approval and
   * output before the model sees it; applied to a workflow's steps through the responder). A trip ends the turn
   * `blocked` with a `GuardrailTrippedError`.
   */
  guardrails?: Guardrails;
  /**
   * Decides tool calls without asking a person, in AI SDK 7's shapes (see `ToolApprovalPolicy`), for every
   * step of the responder's workflow that has no `toolApproval` of its own.
   */
  toolApproval?: ToolApprovalPolicy;
  /**
   * Where `session.enqueue` puts turns and `chat.schedule` keeps schedules, for workers (`createWorker`) to run:
   * a queue from `june/worker` (`pgBossQueue({ connectionString })`). See docs/workers.md.
   */
  queue?: TurnQueue;
  /**
   * Memory across sessions, kept in the store beside the sessions: `working` (a short text per owner or session,
   * with versions: agent chats keep it with `<Memory />`, model chats get it after their instructions) and
   * `recall` (`{ embeddingModel, topK }`: each completed turn embedded after it ends; a new turn gets the most
   * similar turns of the owner's other sessions). See docs/memory.md.
   */
  memory?: ChatMemoryOptions;
}

/** A chat answered by any responder. */
export interface ResponderChatOptions extends ChatOptions {
  responder: Responder;
  model?: never;
}

/** A model chat: shorthand for `{ responder: modelResponder({ model, instructions, ...settings }) }`. */
export interface ModelChatOptions extends ChatOptions, CallSettings {
  model: LanguageModel;
  /** The system prompt, sent with every turn and never stored. */
  instructions?: string;
  /** Recorded on each turn's provenance. */
  id?: string;
  version?: string;
  responder?: never;
}

export type CreateChatOptions = ResponderChatOptions | ModelChatOptions;

/**
 * Turns a responder into a conversation: sessions in a store, a journal, the context each turn sees.
 *
 * @example
 * const chat = createChat({ model: openai("gpt-5-mini"), instructions: "Be brief." });
 * const session = await chat.createSession();
 * const turn = session.send("Hi");
 * for await (const event of turn) if (event.type === "text-delta") process.stdout.write(event.text);
 */
export function createChat(options: CreateChatOptions): Chat {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createChat(options): options must be an object with `responder`, or `model` and `instructions`");
  }
  const { store = memoryStore(), context = fullContext(), idGenerator, maxInputChars = DEFAULT_MAX_INPUT_CHARS, mcp } = options;
  const guardrails = validateGuardrails(options.guardrails, "createChat({ guardrails })");
  const policy: unknown = options.toolApproval;
  if (policy !== undefined && typeof policy !== "function" && (typeof policy !== "object" || policy === null || Array.isArray(policy))) {
    throw new TypeError("createChat({ toolApproval }): must be an object of rules by tool name, or a function");
  }
  const responder = responderOf(options);
  const telemetry = resolveTelemetry(options.telemetry, "createChat({ telemetry })");
  const prices = checkPrices(options.prices, "createChat({ prices }):");
  const budget = checkBudget(options.budget, "createChat({ budget }):");
  if (!isStore(store)) throw new TypeError("createChat({ store }): store must be a ChatStore");
  if (typeof context !== "function") throw new TypeError("createChat({ context }): context must be a context builder function");
  if (idGenerator !== undefined && typeof idGenerator !== "function") {
    throw new TypeError("createChat({ idGenerator }): idGenerator must be a function returning an id");
  }
  if (options.queue !== undefined && !isTurnQueue(options.queue)) throw new TypeError("createChat({ queue }): queue must be made by june/worker (pgBossQueue)");
  if (mcp !== undefined && !isMcpConnections(mcp)) throw new TypeError("createChat({ mcp }): mcp must be made by mcpConnections()");
  if (mcp !== undefined && mcp.tools.length > 0 && options.model !== undefined) {
    throw new TypeError("createChat({ model, mcp }): a model chat calls no tools; answer with an agentResponder whose workflow has the MCP tools");
  }
  if (options.journal !== undefined && (typeof options.journal !== "object" || options.journal === null)) throw new TypeError("createChat({ journal }): must be an object such as { reasoning: true }");
  if (!Number.isInteger(maxInputChars) || maxInputChars < 1) {
    throw new TypeError(`createChat({ maxInputChars }): must be a whole number of characters, 1 or more, got ${String(maxInputChars)}`);
  }
  const files = resolveFileLimits(options.files);
  const memorySettings = resolveMemoryOptions(options.memory);
  const memory = memorySettings ? new ChatMemory(store, memorySettings) : undefined;

  const newId = (kind: "session" | "turn"): string => {
    const id = idGenerator ? idGenerator(kind) : randomUUID();
    if (typeof id !== "string" || id.length === 0) {
      throw new TypeError(`createChat({ idGenerator }): must return a non-empty string, got ${typeof id}`);
    }
    // An id is matched by equality wherever it is kept: one a store would change (or refuse) is no id.
    const problem = unstorableText(id);
    if (problem !== undefined) throw new TypeError(`createChat({ idGenerator }): the ${kind} id it returned ${problem}`);
    return id;
  };
  const durable = durableSettings(responder.durable, "createChat({ responder })");
  if (durable) {
    if (typeof responder.resume !== "function") {
      throw new TypeError("createChat({ responder }): a durable responder needs resume(), to continue its turns from their checkpoints");
    }
    const missing = (["putCheckpoint", "getCheckpoint", "listCheckpoints", "deleteCheckpoint"] as const).filter((m) => typeof store[m] !== "function");
    if (missing.length > 0) {
      throw new TypeError(`createChat({ store }): durable turns need a store that keeps checkpoints; this one has no ${missing.join(", ")}`);
    }
  }
  const guard = (r: Responder): Responder => withChatPolicies(guardrails ? guardedResponder(r, guardrails) : r, options.toolApproval, guardrails?.tool);
  const remembering = memory?.options.working ? withWorkingMemory(responder, memory) : responder;
  const host: SessionHost = {
    store,
    // Each turn's responder runs with the chat's MCP connections in effect, so its runs reuse them.
    responder: guard(mcp ? { ...remembering, respond: (respondOptions) => mcp.run(() => remembering.respond(respondOptions)) } : remembering),
    ...(durable ? { durable } : {}),
    provenance: responderProvenance(responder),
    context,
    maxInputChars,
    files,
    newId,
    running: new Map<string, TurnController>(),
    telemetry,
    ...(prices ? { prices } : {}),
    ...(budget ? { budget } : {}),
    ...(options.queue ? { queue: options.queue } : {}),
    ...(memory ? { memory } : {}),
    ...(options.journal?.reasoning === true ? { journalReasoning: true } : {}),
  };

  // One read of the journal: every store's `read` of an unknown session throws SessionNotFoundError (the
  // conformance suite checks it), and a `getSession` first would make a fileStore scan the journal twice.
  // A built-in store hands it over lazily (`openJournal`): long replies are parsed when first needed.
  const open = async (id: string): Promise<Session> => {
    const opened = canOpenJournal(store) ? { ...(await store[openJournal](id)), checked: true } : { entries: await store.read(id) };
    if (opened.entries.length === 0) throw new SessionNotFoundError(id);
    return new JournaledSession(host, new SessionJournal(store, id, opened));
  };

  return {
    responder,
    store,
    maxInputChars,
    files,
    ...chatSchedules(options.queue, store, maxInputChars),
    async createSession(sessionOptions = {}) {
      if (typeof sessionOptions !== "object" || sessionOptions === null) {
        throw new TypeError("createSession(options): options must be an object of `id?`, `owner?` and `metadata?`");
      }
      // Only a missing id is generated: `null` or any other non-string is refused like a bad string.
      const id = sessionOptions.id === undefined ? newId("session") : sessionOptions.id;
      assertSessionId(id);
      const { owner, metadata } = sessionOptions;
      await store.createSession({ id, ...(owner !== undefined && { owner }), ...(metadata !== undefined && { metadata }) });
      return open(id);
    },
    async openSession(id) {
      assertSessionId(id);
      try {
        return await open(id);
      } catch (error) {
        if (SessionNotFoundError.isInstance(error)) throw new SessionNotFoundError(id);
        throw error;
      }
    },
    listSessions(listOptions?: ListSessionsOptions): Promise<SessionInfo[]> {
      return store.listSessions(listOptions);
    },
    async deleteSession(id) {
      assertSessionId(id);
      return store.deleteSession(id);
    },
    memory(owner) {
      if (!memory) throw new TypeError("chat.memory(owner): the chat keeps no memory (createChat({ memory }))");
      if (typeof owner !== "string" || owner.length === 0) throw new TypeError("chat.memory(owner): owner must be a non-empty string");
      return {
        get: () => memory.read(owner),
        set: (text) => memory.write(owner, text),
        versions: () => memory.versions(owner),
        indexed: () => memory.indexed(),
      };
    },
    async forgetMemory(owner) {
      if (!memory) throw new TypeError("chat.forgetMemory(owner): the chat keeps no memory (createChat({ memory }))");
      if (typeof owner !== "string" || owner.length === 0) throw new TypeError("chat.forgetMemory(owner): owner must be a non-empty string");
      await memory.forget(owner);
    },
  };
}

/** The responder, each turn's run with the turn's working memory serving `<Memory />` (and every resume's). */
function withWorkingMemory(responder: Responder, memory: ChatMemory): Responder {
  const wrapped: Responder = { ...responder, respond: (o) => withToolSources(memory.provider(o.sessionId, o.turnId), () => responder.respond(o)) };
  if (typeof responder.resume === "function") wrapped.resume = (o) => withToolSources(memory.provider(o.sessionId, o.turnId), () => responder.resume!(o));
  return wrapped;
}

function responderOf(options: CreateChatOptions): Responder {
  const hasResponder = options.responder !== undefined;
  const hasModel = options.model !== undefined;
  if (hasResponder && hasModel) {
    throw new TypeError("createChat(options): pass either `responder` or `model` (a model chat's shorthand), not both");
  }
  if (hasModel) {
    const { store: _store, context: _context, idGenerator: _ids, maxInputChars: _max, telemetry: _telemetry, mcp: _mcp, prices: _prices, budget: _budget, guardrails: _guardrails, toolApproval: _toolApproval, files: _files, queue: _queue, journal: _journal, memory: _memory, ...modelOptions } = options as ModelChatOptions;
    return modelResponder(modelOptions);
  }
  const responder = options.responder;
  if (!hasResponder || typeof responder !== "object" || responder === null || typeof responder.respond !== "function") {
    throw new TypeError("createChat(options): pass `responder` (an object with respond()) or `model`");
  }
  for (const key of ["kind", "id", "version"] as const) {
    const value = responder[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`createChat({ responder }): responder.${key} must be a string, got ${typeof value}`);
    }
  }
  return responder;
}

/** The responder, handed the chat's `toolApproval` and tool guardrails with every turn (and every resume). */
function withChatPolicies(responder: Responder, toolApproval: ToolApprovalPolicy | undefined, tool: Guardrails["tool"]): Responder {
  if (toolApproval === undefined && (tool === undefined || tool.length === 0)) return responder;
  const extra = { ...(toolApproval !== undefined ? { toolApproval } : {}), ...(tool !== undefined && tool.length > 0 ? { guardrails: { tool } } : {}) };
  const wrapped: Responder = { ...responder, respond: (respondOptions) => responder.respond({ ...respondOptions, ...extra }) };
  if (typeof responder.resume === "function") wrapped.resume = (resumeOptions) => responder.resume!({ ...resumeOptions, ...extra });
  return wrapped;
}

function isStore(store: unknown): store is ChatStore {
  if (typeof store !== "object" || store === null) return false;
  const s = store as Record<string, unknown>;
  return ["createSession", "getSession", "listSessions", "deleteSession", "append", "read", "acquireTurn", "releaseTurn"].every(
    (method) => typeof s[method] === "function",
  );
}
