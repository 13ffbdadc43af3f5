import { checkOwner } from "./journal-entries.js";
import type { JournalEntry, ListSessionsOptions, SessionInfo } from "./types.js";

/** The longest title `listSessions` returns, marker included. */
export const TITLE_MAX_CHARS = 80;

/** What a store keeps about a session to list it (`SessionInfo`) without reading its journal again. JSON-safe. */
export interface SessionListing {
  createdAt: string;
  updatedAt: string;
  title?: string | undefined;
  turnCount: number;
  /** The `session` entry's owner. */
  owner?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** The seq of the last entry. */
  lastSeq: number;
}

/** Whitespace a title does not keep as it is: any but a space, two spaces, a space at either end. */
const NOT_FLAT = /[^\S ]|  |^ | $/;

/** A session's first input as a one-line title: whitespace collapsed, cut with "…" past 80 characters. */
export function makeTitle(input: string): string {
  // An input already on one line with single spaces is its own title (the very string: not held twice).
  const flat = NOT_FLAT.test(input) ? input.replace(/\s+/g, " ").trim() : input;
  if (flat.length <= TITLE_MAX_CHARS) return flat;
  // Do not cut a surrogate pair in half.
  let cut = TITLE_MAX_CHARS - 1;
  const code = flat.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut)}…`;
}

/** A listing from a journal's `session` entry. */
export function startListing(entry: JournalEntry): SessionListing {
  // Every field from the start (`title` and `metadata` maybe undefined): they live in the object.
  return {
    createdAt: entry.at,
    updatedAt: entry.at,
    title: undefined,
    turnCount: 0,
    owner: entry.type === "session" ? entry.owner : undefined,
    metadata: entry.type === "session" ? entry.metadata : undefined,
    lastSeq: entry.seq,
  };
}

/** Folds one entry (after the `session` entry) into a listing, in place. */
export function foldEntry(listing: SessionListing, entry: JournalEntry): void {
  listing.updatedAt = entry.at;
  listing.lastSeq = entry.seq;
  if (entry.type === "turn-start") {
    listing.turnCount += 1;
    if (listing.title === undefined) listing.title = makeTitle(entry.input);
  } else if (entry.type === "rename") {
    // A name given wins over the first input, before or after it.
    listing.title = entry.title;
  }
}

/** The public description of a session. */
export function toSessionInfo(id: string, listing: SessionListing): SessionInfo {
  const info: SessionInfo = {
    id,
    createdAt: listing.createdAt,
    updatedAt: listing.updatedAt,
    turnCount: listing.turnCount,
  };
  if (listing.title !== undefined) info.title = listing.title;
  if (listing.owner !== undefined) info.owner = listing.owner;
  if (listing.metadata !== undefined) info.metadata = structuredClone(listing.metadata);
  return info;
}

/** Checks `listSessions` options; throws `TypeError` naming the bad one. */
export function checkListOptions(options: ListSessionsOptions | undefined): { limit: number; before: number; owner: string | undefined } {
  const owner = options?.owner;
  checkOwner(owner, "listSessions");
  const limit = options?.limit ?? Infinity;
  if (limit !== Infinity && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0)) {
    throw new TypeError("listSessions: `limit` must be a whole number >= 0");
  }
  let before = Infinity;
  if (options?.before !== undefined) {
    before = typeof options.before === "string" ? Date.parse(options.before) : Number.NaN;
    if (Number.isNaN(before)) throw new TypeError("listSessions: `before` must be an ISO time");
  }
  return { limit, before, owner };
}

/** A session in a listing, with a tie-breaker for equal `updatedAt` (higher is newer). */
export interface ListCandidate {
  info: SessionInfo;
  tie: number | string;
}

/** Newest `updatedAt` first, then by tie-breaker; `owner`, `before` and `limit` applied. */
export function pageSessions(candidates: ListCandidate[], options: ListSessionsOptions | undefined): SessionInfo[] {
  const { limit, before, owner } = checkListOptions(options);
  const keyed = candidates
    .filter((c) => owner === undefined || c.info.owner === owner)
    .map((c) => ({ c, time: Date.parse(c.info.updatedAt) }))
    .filter(({ time }) => !(time >= before));
  keyed.sort((a, b) => b.time - a.time || (a.c.tie < b.c.tie ? 1 : a.c.tie > b.c.tie ? -1 : 0));
  return keyed.slice(0, limit).map(({ c }) => c.info);
}
