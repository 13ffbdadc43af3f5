import type { EmbeddingModel } from "ai";
import type { RecallMatch } from "../../stores/memory-types.js";
import { errorInfo } from "../stream/error-info.js";

/**
 * Memory across sessions (`createChat({ memory })`, docs/memory.md): a working memory per owner (or session) that
 * agent chats keep with `<Memory />` and model chats read, and recall of the owner's earlier sessions' turns.
 */
export interface ChatMemoryOptions {
  /** A short text kept per owner (default) or per session, with its versions, in the chat's store. */
  working?: {
    /** Whose: the session's owner's, shared by all their sessions (default), or each session's own. */
    scope?: "owner" | "session";
    /** What an agent's `render` gets as `memory.working` before anything is kept (a form for the model to fill in). */
    template?: string;
    /** The longest text kept, in characters. Default 4,000. */
    maxChars?: number;
  };
  /** Recall: each completed turn embedded after it ends; a new turn gets the most similar turns of the owner's other sessions. */
  recall?: {
    /** An AI SDK embedding model (`openai.embedding("text-embedding-3-small")`). */
    embeddingModel: EmbeddingModel;
    /** How many earlier turns a turn gets, at most. Default 3. */
    topK?: number;
    /** Only turns at least this similar (cosine, -1 to 1). Default 0.1. */
    minScore?: number;
    /** Whose turns are searched: the session's owner's (the only scope). */
    scope?: "owner";
    /**
     * Told when recall fails: a turn's search (the turn goes on without recall, and its provenance's
     * `memory.recallError` says why) or the indexing of turns that ended (they are not recalled). Default: one
     * `console.warn` line, the error's message with credentials masked.
     */
    onError?: (event: RecallErrorEvent) => void;
  };
}

/** What `recall.onError` is told: which part of recall failed, for which session or turns, and the error. */
export type RecallErrorEvent =
  | { readonly phase: "search"; readonly sessionId: string; readonly error: unknown }
  | { readonly phase: "index"; readonly turns: readonly { readonly sessionId: string; readonly turnId: string }[]; readonly error: unknown };

/** What a turn's responder gets of memory (`RespondOptions.memory`; an agent's `render` gets it as `memory`). */
export interface TurnMemory {
  /** The working memory's text (else the `template`; undefined when there is neither, or no memory is kept). */
  working: string | undefined;
  /** Earlier turns of the owner's other sessions, most similar first, each with its session and turn id and score. */
  recalled: RecallMatch[];
}

export interface ResolvedMemoryOptions {
  working?: { scope: "owner" | "session"; template?: string; maxChars: number };
  recall?: { embeddingModel: EmbeddingModel; topK: number; minScore: number; onError: (event: RecallErrorEvent) => void };
}

const where = "createChat({ memory })";

export function resolveMemoryOptions(options: unknown): ResolvedMemoryOptions | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null) throw new TypeError(`${where}: memory must be an object of \`working\` and \`recall\``);
  const { working, recall } = options as ChatMemoryOptions;
  if (working === undefined && recall === undefined) throw new TypeError(`${where}: give \`working\`, \`recall\` or both`);
  const resolved: ResolvedMemoryOptions = {};
  if (working !== undefined) {
    if (typeof working !== "object" || working === null) throw new TypeError(`${where}: \`working\` must be an object ({} for the defaults)`);
    const scope = working.scope ?? "owner";
    if (scope !== "owner" && scope !== "session") throw new TypeError(`${where}: \`working.scope\` must be "owner" or "session"`);
    const maxChars = working.maxChars ?? 4000;
    if (!Number.isInteger(maxChars) || maxChars < 1 || maxChars > 100_000) throw new TypeError(`${where}: \`working.maxChars\` must be a whole number from 1 to 100,000`);
    if (working.template !== undefined && typeof working.template !== "string") throw new TypeError(`${where}: \`working.template\` must be a string`);
    resolved.working = { scope, maxChars, ...(working.template !== undefined ? { template: working.template } : {}) };
  }
  if (recall !== undefined) {
    if (typeof recall !== "object" || recall === null) throw new TypeError(`${where}: \`recall\` must be an object with \`embeddingModel\``);
    const model = recall.embeddingModel as unknown;
    if (typeof model !== "string" && (typeof model !== "object" || model === null || typeof (model as { doEmbed?: unknown }).doEmbed !== "function")) {
      throw new TypeError(`${where}: \`recall.embeddingModel\` must be an AI SDK embedding model`);
    }
    const topK = recall.topK ?? 3;
    if (!Number.isInteger(topK) || topK < 1 || topK > 100) throw new TypeError(`${where}: \`recall.topK\` must be a whole number from 1 to 100`);
    const minScore = recall.minScore ?? 0.1;
    if (typeof minScore !== "number" || !(minScore >= -1 && minScore <= 1)) throw new TypeError(`${where}: \`recall.minScore\` must be a number from -1 to 1`);
    if (recall.scope !== undefined && recall.scope !== "owner") throw new TypeError(`${where}: \`recall.scope\` must be "owner"`);
    if (recall.onError !== undefined && typeof recall.onError !== "function") throw new TypeError(`${where}: \`recall.onError\` must be a function`);
    resolved.recall = { embeddingModel: recall.embeddingModel, topK, minScore, onError: recall.onError ?? warnRecallError };
  }
  return resolved;
}

/** `recall.onError`'s default: one line on the console, the error's message with credentials and paths masked. */
function warnRecallError(event: RecallErrorEvent): void {
  const { name, message } = errorInfo(event.error);
  const what = event.phase === "search" ? `a turn of session ${event.sessionId} went on without recall` : `${event.turns.length} finished ${event.turns.length === 1 ? "turn was" : "turns were"} not indexed for recall`;
  console.warn(`june: memory recall failed (${event.phase}): ${what}: ${name}: ${message}`);
}
