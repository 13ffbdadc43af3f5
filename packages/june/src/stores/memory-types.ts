/*
 * The store's memory area (`createChat({ memory })`, docs/memory.md): working memory, one short text per owner or
 * per session with its versions, and the recall index, one embedded entry per completed turn. Kept beside the
 * sessions, never in a journal.
 */

/** Whose working memory: an owner's (`{ scope: "owner", id: owner }`) or one session's (`{ scope: "session", id }`). */
export interface MemoryKey {
  scope: "owner" | "session";
  /** The owner (1 to 1,000 characters), or the session id. */
  id: string;
}

/** One version of a working memory: its whole text, when it was written and by which turn. JSON-safe. */
export interface MemoryVersion {
  /** 1 for the first text, one more for each change. */
  version: number;
  text: string;
  /** ISO time. */
  at: string;
  /** The session and turn that wrote it; absent when an app set it (`chat.memory(owner).set`). */
  sessionId?: string;
  turnId?: string;
}

/** What `ChatStore.putMemory` takes: the whole new text, and the turn that writes it, if any. */
export interface MemoryUpdate {
  text: string;
  sessionId?: string;
  turnId?: string;
}

/** One completed turn in the recall index: its text as embedded (credentials masked) and its embedding. */
export interface RecallEntry {
  owner: string;
  sessionId: string;
  turnId: string;
  /** The turn as it was embedded: its input and its reply. */
  text: string;
  /** The SHA-256 (hex) of `text`: the same text is embedded once. */
  contentHash: string;
  embedding: number[];
  /** ISO time the turn ended. */
  at: string;
}

/** What `ChatStore.searchRecall` looks for: the owner's entries nearest `embedding`, outside `excludeSessionId`. */
export interface RecallQuery {
  owner: string;
  embedding: number[];
  /** The most entries to return (1 to 100). */
  limit: number;
  /** Leave this session's turns out (the session asking). */
  excludeSessionId?: string;
}

/** A recall index entry a search found: its turn, text and cosine similarity to the query (1 is the same direction). */
export interface RecallMatch {
  sessionId: string;
  turnId: string;
  text: string;
  score: number;
  at: string;
}

/**
 * The store's memory methods (all of them or none: every built-in store has them; a chat with `memory` needs
 * them). Owner-scoped data never crosses owners; `deleteSession` deletes the session's recall entries and its
 * session-scoped working memory.
 */
export interface MemoryStoreMethods {
  /** The latest version of a working memory, or undefined when there is none. */
  getMemory(key: MemoryKey): Promise<MemoryVersion | undefined>;
  /**
   * Writes a new version (the next number) with `update.text`, unless the text is the latest version's: then
   * nothing is written and the latest version is returned.
   */
  putMemory(key: MemoryKey, update: MemoryUpdate): Promise<MemoryVersion>;
  /** Every version kept, oldest first (empty when none). */
  listMemoryVersions(key: MemoryKey): Promise<MemoryVersion[]>;
  /** Deletes the working memory and all its versions; false when there was none. */
  deleteMemory(key: MemoryKey): Promise<boolean>;
  /** Adds entries to the recall index; an entry for a turn already indexed replaces it. */
  putRecall(entries: readonly RecallEntry[]): Promise<void>;
  /** The owner's entries most similar to the query (cosine), best first, at most `limit`. */
  searchRecall(query: RecallQuery): Promise<RecallMatch[]>;
  /** Deletes an owner's recall entries, or a session's; resolves to how many were deleted. */
  deleteRecall(target: { owner: string } | { sessionId: string }): Promise<number>;
}

/**
 * What a turn's context took from memory (`createChat({ memory })`), as its `turn-start` journals it: the working
 * memory's version (never its text) and the earlier turns recalled, by id, with their scores.
 */
export interface MemoryProvenance {
  working?: { scope: "owner" | "session"; version: number };
  recalled?: { sessionId: string; turnId: string; score: number }[];
  /** Recall's search failed for this turn (the embedding model or the store): the turn went on without it, and says why (redacted). */
  recallError?: { name: string; message: string };
}
