import { assertSessionId } from "./errors.js";
import type { MemoryKey, MemoryStoreMethods, MemoryUpdate, MemoryVersion, RecallEntry, RecallMatch, RecallQuery } from "./memory-types.js";

/** The memory methods of a store (`MemoryStoreMethods`), all of them or none. */
export const MEMORY_METHODS = ["getMemory", "putMemory", "listMemoryVersions", "deleteMemory", "putRecall", "searchRecall", "deleteRecall"] as const satisfies readonly (keyof MemoryStoreMethods)[];

/** A memory area's methods alone, to spread into a store's object. */
export function memoryMethodsOf(area: MemoryStoreMethods): MemoryStoreMethods {
  const methods = {} as Record<string, unknown>;
  for (const name of MEMORY_METHODS) methods[name] = area[name];
  return methods as unknown as MemoryStoreMethods;
}

/** The most versions a working memory keeps: older ones are dropped as new ones come. */
export const MAX_MEMORY_VERSIONS = 100;
/** The longest working memory text a store takes (a chat bounds it lower: `memory.working.maxChars`). */
export const MAX_MEMORY_TEXT = 100_000;
const MAX_OWNER = 1000;

/** Checks a memory key; a `TypeError` naming the method when it is not one. */
export function checkMemoryKey(method: string, key: unknown): MemoryKey {
  if (typeof key !== "object" || key === null) throw new TypeError(`${method}: key must be { scope: "owner" | "session", id }`);
  const { scope, id } = key as MemoryKey;
  if (scope === "session") assertSessionId(id);
  else if (scope === "owner") checkOwner(method, id);
  else throw new TypeError(`${method}: key.scope must be "owner" or "session", got ${JSON.stringify(scope)}`);
  return { scope, id };
}

export function checkOwner(method: string, owner: unknown): string {
  if (typeof owner !== "string" || owner.length === 0 || owner.length > MAX_OWNER) {
    throw new TypeError(`${method}: owner must be a string of 1 to ${MAX_OWNER} characters`);
  }
  return owner;
}

export function checkMemoryUpdate(update: unknown): MemoryUpdate {
  if (typeof update !== "object" || update === null) throw new TypeError("putMemory: update must be { text, sessionId?, turnId? }");
  const { text, sessionId, turnId } = update as MemoryUpdate;
  if (typeof text !== "string" || text.length > MAX_MEMORY_TEXT) throw new TypeError(`putMemory: text must be a string of at most ${MAX_MEMORY_TEXT} characters`);
  if (sessionId !== undefined) assertSessionId(sessionId);
  if (turnId !== undefined && (typeof turnId !== "string" || turnId.length === 0)) throw new TypeError("putMemory: turnId must be a non-empty string");
  return { text, ...(sessionId !== undefined ? { sessionId } : {}), ...(turnId !== undefined ? { turnId } : {}) };
}

/** The version `update` makes after `latest`, or undefined when it changes nothing. */
export function nextVersion(latest: MemoryVersion | undefined, update: MemoryUpdate, at = new Date()): MemoryVersion | undefined {
  if (latest !== undefined && latest.text === update.text) return undefined;
  return { version: (latest?.version ?? 0) + 1, text: update.text, at: at.toISOString(), ...(update.sessionId !== undefined ? { sessionId: update.sessionId } : {}), ...(update.turnId !== undefined ? { turnId: update.turnId } : {}) };
}

export function checkRecallEntries(entries: unknown): RecallEntry[] {
  if (!Array.isArray(entries)) throw new TypeError("putRecall: entries must be an array");
  return entries.map((entry: RecallEntry) => {
    if (typeof entry !== "object" || entry === null) throw new TypeError("putRecall: each entry must be an object");
    checkOwner("putRecall", entry.owner);
    assertSessionId(entry.sessionId);
    if (typeof entry.turnId !== "string" || entry.turnId.length === 0) throw new TypeError("putRecall: turnId must be a non-empty string");
    if (typeof entry.text !== "string") throw new TypeError("putRecall: text must be a string");
    if (typeof entry.contentHash !== "string" || !/^[0-9a-f]{64}$/.test(entry.contentHash)) throw new TypeError("putRecall: contentHash must be a SHA-256 in hex");
    checkEmbedding("putRecall", entry.embedding);
    if (typeof entry.at !== "string" || Number.isNaN(Date.parse(entry.at))) throw new TypeError("putRecall: at must be an ISO time");
    return { owner: entry.owner, sessionId: entry.sessionId, turnId: entry.turnId, text: entry.text, contentHash: entry.contentHash, embedding: [...entry.embedding], at: entry.at };
  });
}

export function checkRecallQuery(query: unknown): RecallQuery {
  if (typeof query !== "object" || query === null) throw new TypeError("searchRecall: query must be { owner, embedding, limit, excludeSessionId? }");
  const { owner, embedding, limit, excludeSessionId } = query as RecallQuery;
  checkOwner("searchRecall", owner);
  checkEmbedding("searchRecall", embedding);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new TypeError("searchRecall: limit must be a whole number from 1 to 100");
  if (excludeSessionId !== undefined) assertSessionId(excludeSessionId);
  return { owner, embedding, limit, ...(excludeSessionId !== undefined ? { excludeSessionId } : {}) };
}

export function checkRecallTarget(target: unknown): { owner: string } | { sessionId: string } {
  if (typeof target === "object" && target !== null) {
    if ("owner" in target) return { owner: checkOwner("deleteRecall", (target as { owner: unknown }).owner) };
    if ("sessionId" in target) {
      const { sessionId } = target as { sessionId: unknown };
      assertSessionId(sessionId);
      return { sessionId };
    }
  }
  throw new TypeError("deleteRecall: target must be { owner } or { sessionId }");
}

function checkEmbedding(method: string, embedding: unknown): void {
  if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === "number" && Number.isFinite(x))) {
    throw new TypeError(`${method}: embedding must be a non-empty array of finite numbers`);
  }
}

/** Cosine similarity; 0 when either vector is all zeros or their lengths differ. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The exact search in process: every candidate scored, the best `limit` kept, best first (ties: newest first). */
export function exactSearch(query: RecallQuery, candidates: Iterable<{ sessionId: string; turnId: string; text: string; at: string; embedding: ArrayLike<number> }>): RecallMatch[] {
  const scored: RecallMatch[] = [];
  for (const c of candidates) {
    if (c.sessionId === query.excludeSessionId) continue;
    scored.push({ sessionId: c.sessionId, turnId: c.turnId, text: c.text, at: c.at, score: cosine(query.embedding, c.embedding) });
  }
  scored.sort((x, y) => y.score - x.score || (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
  return scored.slice(0, query.limit);
}

/** The key's identity as one string (scope, then id). */
export function memoryKeyString(key: MemoryKey): string {
  return `${key.scope}:${key.id}`;
}

/** A working memory version as the SQL stores keep it, a row per version. */
export interface MemoryVersionRow {
  version: number;
  text: string;
  at: string;
  session_id: string | null;
  turn_id: string | null;
}

/** A version from its row (`MemoryVersionRow`). */
export function versionOfRow(row: MemoryVersionRow): MemoryVersion {
  return {
    version: row.version,
    text: row.text,
    at: row.at,
    ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
    ...(row.turn_id !== null ? { turnId: row.turn_id } : {}),
  };
}
