import { createHash } from "node:crypto";
import { embedMany } from "ai";
import { runMemory, type RunMemory } from "../../memory/memory-element.js";
import { redactText } from "../../redaction/redact.js";
import { MEMORY_METHODS } from "../../stores/memory-records.js";
import type { MemoryKey, MemoryProvenance, MemoryStoreMethods, MemoryVersion, RecallEntry, RecallMatch } from "../../stores/memory-types.js";
import type { ChatStore, JournalEntry } from "../../stores/types.js";
import { errorInfo } from "../stream/error-info.js";
import type { RecallErrorEvent, ResolvedMemoryOptions, TurnMemory } from "./memory-options.js";

/** Embeddings kept per chat, by the SHA-256 of their text: the same text is embedded once. */
const CACHE_MAX = 1000;
/** Sessions whose owner is kept per chat (an owner never changes). */
const OWNERS_MAX = 10_000;
/** The longest text embedded: a turn's input and reply, cut. */
const EMBED_MAX_CHARS = 8000;

type MemoryStore = ChatStore & MemoryStoreMethods;

/** A turn ended, to index: what the recall index keeps of it. */
interface FinishedTurn {
  sessionId: string;
  turnId: string;
  input: string;
  text: string;
  at: string;
}

/**
 * A chat's memory (`createChat({ memory })`): loads a turn's working memory and recalled turns before it starts,
 * serves `<Memory />`'s updates, indexes finished turns off their path (one batched `embedMany` for the turns that
 * ended meanwhile), and forgets an owner. Everything lives in the chat's store; only a bounded cache of embeddings
 * and of sessions' owners is kept here.
 */
export class ChatMemory {
  readonly options: ResolvedMemoryOptions;
  readonly #store: MemoryStore;
  readonly #owners = new Map<string, string | null>();
  readonly #embeddings = new Map<string, number[]>();
  #pending: (FinishedTurn & { owner: string })[] = [];
  #flushing: Promise<void> | undefined;

  constructor(store: ChatStore, options: ResolvedMemoryOptions) {
    const missing = MEMORY_METHODS.filter((m) => typeof store[m] !== "function");
    if (missing.length > 0) throw new TypeError(`createChat({ memory }): the store keeps no memory; it has no ${missing.join(", ")}`);
    this.#store = store as MemoryStore;
    this.options = options;
  }

  /** The working memory's key for a session of `owner` (undefined: an owner-scoped memory of a session with no owner). */
  keyOf(sessionId: string, owner: string | undefined): MemoryKey | undefined {
    const scope = this.options.working?.scope ?? "owner";
    if (scope === "session") return { scope, id: sessionId };
    return owner === undefined ? undefined : { scope, id: owner };
  }

  async ownerOf(sessionId: string): Promise<string | undefined> {
    let owner = this.#owners.get(sessionId);
    if (owner === undefined) {
      owner = (await this.#store.getSession(sessionId))?.owner ?? null;
      if (this.#owners.size >= OWNERS_MAX) this.#owners.delete(this.#owners.keys().next().value!);
      this.#owners.set(sessionId, owner);
    }
    return owner ?? undefined;
  }

  /** What a new turn gets of memory, and what its `turn-start` journals of it. */
  async load(sessionId: string, input: string): Promise<{ memory: TurnMemory; provenance: MemoryProvenance | undefined }> {
    const owner = await this.ownerOf(sessionId);
    const provenance: MemoryProvenance = {};
    let working: string | undefined;
    const { working: settings, recall } = this.options;
    if (settings) {
      const key = this.keyOf(sessionId, owner);
      const kept = key && (await this.#store.getMemory(key));
      if (kept) provenance.working = { scope: key!.scope, version: kept.version };
      working = kept?.text ?? settings.template;
    }
    let recalled: RecallMatch[] = [];
    if (recall && owner !== undefined && input.trim() !== "") {
      try {
        const [embedding] = await this.#embed([input]);
        const found = await this.#store.searchRecall({ owner, embedding: embedding!, limit: recall.topK, excludeSessionId: sessionId });
        recalled = found.filter((match) => match.score >= recall.minScore);
      } catch (error) {
        // Recall is best effort: an embedding model or store that fails leaves the turn without it, not failed,
        // and says so: in the turn's provenance and to `recall.onError`.
        provenance.recallError = errorInfo(error);
        this.#told({ phase: "search", sessionId, error });
      }
      if (recalled.length > 0) provenance.recalled = recalled.map(({ sessionId: s, turnId, score }) => ({ sessionId: s, turnId, score: Math.round(score * 1e4) / 1e4 }));
    }
    return { memory: { working, recalled }, provenance: provenance.working || provenance.recalled || provenance.recallError ? provenance : undefined };
  }

  /**
   * What a resumed turn gets of memory: what its `turn-start` says it had when it started (the working memory at
   * that version, the turns it recalled, read again), not what memory holds now, so a durable turn's workflow
   * renders after a resume (in any process) as it rendered before. A version forgotten since is the template; a
   * recalled turn whose session was deleted since is left out.
   */
  async restore(sessionId: string, provenance: MemoryProvenance | undefined): Promise<TurnMemory> {
    const { working: settings } = this.options;
    let working: string | undefined;
    if (settings) {
      const key = provenance?.working ? this.keyOf(sessionId, await this.ownerOf(sessionId)) : undefined;
      const version = key && (await this.#store.listMemoryVersions(key)).find((v) => v.version === provenance!.working!.version);
      working = version ? version.text : settings.template;
    }
    const recalled: RecallMatch[] = [];
    // Each recalled session's journal read once, however many of its turns were recalled.
    const journals = new Map<string, Promise<JournalEntry[] | undefined>>();
    for (const { sessionId: from, turnId, score } of provenance?.recalled ?? []) {
      if (!journals.has(from)) journals.set(from, this.#store.read(from).catch(() => undefined));
      const turn = recalledTurn(await journals.get(from)!, turnId);
      if (turn) recalled.push({ sessionId: from, turnId, text: redactText(turnText(turn.input, turn.text)), score, at: turn.at });
    }
    return { working, recalled };
  }

  /** What serves `<Memory />` in a turn's run: updates go to the turn's owner's (or session's) working memory. */
  provider(sessionId: string, turnId: string): RunMemory {
    const maxChars = this.options.working?.maxChars ?? 0;
    return runMemory({
      maxChars,
      update: async (text) => {
        const key = this.keyOf(sessionId, await this.ownerOf(sessionId));
        if (!key) throw new TypeError("update_memory: the session has no owner, so there is no owner's memory to keep (createSession({ owner }))");
        const before = await this.#store.getMemory(key);
        const kept = await this.#store.putMemory(key, { text: redactText(text), sessionId, turnId });
        return { version: kept.version, changed: kept.version !== before?.version };
      },
    });
  }

  /** Queues a completed turn for the recall index; indexed off the turn's path, with the turns that end meanwhile. */
  indexTurn(turn: FinishedTurn): void {
    if (!this.options.recall) return;
    void this.ownerOf(turn.sessionId)
      .then((owner) => {
        if (owner === undefined) return;
        this.#pending.push({ ...turn, owner });
        this.#flushing ??= this.#flush();
      })
      .catch((error: unknown) => this.#told({ phase: "index", turns: [{ sessionId: turn.sessionId, turnId: turn.turnId }], error }));
  }

  /** Tells `recall.onError` (one that throws is not June's failure to report, and not the turn's). */
  #told(event: RecallErrorEvent): void {
    try {
      this.options.recall?.onError(event);
    } catch {
      // Nothing more to tell.
    }
  }

  /** Resolves once every turn queued so far is in the recall index (or failed to be). */
  async indexed(): Promise<void> {
    // The owner lookups queued by `indexTurn` run first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#flushing) await this.#flushing;
  }

  async #flush(): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        const texts = batch.map((turn) => redactText(turnText(turn.input, turn.text)));
        try {
          const embeddings = await this.#embed(texts);
          const entries: RecallEntry[] = batch.map((turn, i) => ({
            owner: turn.owner,
            sessionId: turn.sessionId,
            turnId: turn.turnId,
            text: texts[i]!,
            contentHash: hash(texts[i]!),
            embedding: embeddings[i]!,
            at: turn.at,
          }));
          await this.#store.putRecall(entries);
        } catch (error) {
          // Recall is best effort: a turn that could not be embedded or stored is not recalled, and `onError` is told.
          this.#told({ phase: "index", turns: batch.map(({ sessionId, turnId }) => ({ sessionId, turnId })), error });
        }
      }
    } finally {
      this.#flushing = undefined;
    }
  }

  /** Embeds texts (credentials masked first) in one `embedMany`, those embedded before from the cache. */
  async #embed(texts: readonly string[]): Promise<number[][]> {
    const masked = texts.map((text) => redactText(text.length > EMBED_MAX_CHARS ? text.slice(0, EMBED_MAX_CHARS) : text));
    const hashes = masked.map(hash);
    const missing = [...new Set(hashes.filter((h) => !this.#embeddings.has(h)))];
    if (missing.length > 0) {
      const values = missing.map((h) => masked[hashes.indexOf(h)]!);
      const { embeddings } = await embedMany({ model: this.options.recall!.embeddingModel, values, maxRetries: 1 });
      missing.forEach((h, i) => {
        if (this.#embeddings.size >= CACHE_MAX) this.#embeddings.delete(this.#embeddings.keys().next().value!);
        this.#embeddings.set(h, embeddings[i]!);
      });
    }
    return hashes.map((h) => this.#embeddings.get(h)!);
  }

  /** The owner's working memory (or a session's, with `sessionId` when the scope is `"session"`). */
  read(owner: string, sessionId?: string): Promise<MemoryVersion | undefined> {
    return this.#store.getMemory(this.#appKey(owner, sessionId));
  }

  versions(owner: string, sessionId?: string): Promise<MemoryVersion[]> {
    return this.#store.listMemoryVersions(this.#appKey(owner, sessionId));
  }

  async write(owner: string, text: string, sessionId?: string): Promise<MemoryVersion> {
    if (typeof text !== "string") throw new TypeError("chat.memory(owner).set(text): text must be a string");
    const maxChars = this.options.working?.maxChars ?? 4000;
    if (text.length > maxChars) throw new RangeError(`chat.memory(owner).set(text): the text is ${text.length} characters, more than the ${maxChars} kept`);
    return this.#store.putMemory(this.#appKey(owner, sessionId), { text: redactText(text) });
  }

  /** Deletes the owner's working memory and versions (their sessions' too, with a session scope) and their recall index. */
  async forget(owner: string): Promise<void> {
    await this.indexed();
    this.#embeddings.clear();
    await this.#store.deleteMemory({ scope: "owner", id: owner });
    if (this.options.working?.scope === "session") {
      for (const session of await this.#store.listSessions({ owner })) await this.#store.deleteMemory({ scope: "session", id: session.id });
    }
    await this.#store.deleteRecall({ owner });
  }

  #appKey(owner: string, sessionId: string | undefined): MemoryKey {
    if (typeof owner !== "string" || owner.length === 0) throw new TypeError("chat.memory(owner): owner must be a non-empty string");
    return sessionId === undefined ? { scope: "owner", id: owner } : { scope: "session", id: sessionId };
  }
}

/** A completed turn's input, reply and end, from its session's journal; undefined when it (or the session) is gone. */
function recalledTurn(entries: readonly JournalEntry[] | undefined, turnId: string): { input: string; text: string; at: string } | undefined {
  if (!entries) return undefined;
  let input: string | undefined;
  let end: { text: string; at: string } | undefined;
  for (const entry of entries) {
    if (entry.type === "turn-start" && entry.turnId === turnId) input ??= entry.input;
    else if (entry.type === "turn-end" && entry.turnId === turnId && entry.status === "completed") end = { text: entry.text ?? "", at: entry.at };
  }
  return input !== undefined && end ? { input, ...end } : undefined;
}

/** A turn as the recall index keeps and embeds it. */
function turnText(input: string, reply: string): string {
  const text = `User: ${input}\nAssistant: ${reply}`;
  return text.length > EMBED_MAX_CHARS ? text.slice(0, EMBED_MAX_CHARS) : text;
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
