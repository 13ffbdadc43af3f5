import type { ModelMessage } from "ai";
import type { FileRef, JournalEntry } from "../../stores/types.js";
import type { TurnRecord } from "./turn-types.js";

/** What a context builder returns. */
export interface ContextResult {
  name: string;
  messages: ModelMessage[];
  turnIds: string[];
  summaryId?: string;
  /**
   * A summary the builder just wrote (`summarizedContext`): the session journals it as a `summary` entry
   * with the turn's `turn-start`, so later turns reuse it. Builders stay pure: they never write the journal.
   */
  summary?: { throughTurnId: string; text: string };
  /** Ids of files of the sent turns that the builder left out (no room for them): recorded in the provenance. */
  filesLeftOut?: string[];
}

export interface ContextOptions {
  sessionId: string;
  /** The new turn's input. */
  input: string;
  /** The new turn's files (absent when none). */
  files?: readonly FileRef[];
  /**
   * The session's journal, for builders that need more than the turns. Read-only. Made when first read (a
   * session keeps most turn-starts and turn-ends only in its turn records, and rebuilds them, equal, for this
   * list): a builder that never reads it costs no copy of the journal.
   */
  entries: readonly JournalEntry[];
  /**
   * An object that lives as long as the open session object does (set by the session; absent when a builder is
   * called by hand). A builder that keeps work between turns keys it by this (a `WeakMap`), so it goes when the
   * session is dropped: never by a record or an entry, which a store may keep for as long as it lives.
   */
  scope?: object;
}

/** Decides what earlier turns every responder sees. */
export type ContextBuilder = (
  history: TurnRecord[],
  options: ContextOptions,
) => ContextResult | ModelMessage[] | Promise<ContextResult | ModelMessage[]>;
