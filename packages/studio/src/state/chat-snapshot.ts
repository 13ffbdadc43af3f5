import type { ChatTraceRow, SessionDetail, TurnError, TurnRecord } from "../api/types";
import type { ReplySource } from "june/stream";

/** A turn as it runs: built from its event stream, replaced by its journaled record once it ends. */
export interface LiveTurn {
  /** A React key that holds before the turn id is known. */
  key: string;
  turnId?: string;
  input: string;
  /** The files the message sent: local previews until the turn is journaled, then the server's. */
  files?: LiveFile[];
  steers: string[];
  text: string;
  /** The model's reasoning so far, when it streams any; `reasoningMs` once its last part ended (from its first start). */
  reasoning?: string;
  reasoningStartedAt?: number;
  reasoningMs?: number;
  /** The sources the reply cited so far. */
  sources?: ReplySource[];
  rows: ChatTraceRow[];
  status: "running" | "completed" | "failed" | "canceled" | "suspended" | "blocked";
  error?: TurnError;
  /** Questions the workflow asks (`input-request`) and no one has answered yet. */
  questions?: { id: string; question: string }[];
  /** A regenerated or edited turn: the id of the turn it takes the place of (shown no more, nor what follows it). */
  replaces?: string;
}

/** A file of a message, where the page shows it from. */
export interface LiveFile {
  key: string;
  /** A local object URL (a file being sent), or the server's file route. */
  url: string;
  mediaType: string;
  filename?: string;
  size: number;
}

/** What the open session shows, as one immutable value: a new object on every change. */
export interface ChatSnapshot {
  /** The session open now (`null`: none, the pane invites a first message). */
  sessionId: string | null;
  detail: SessionDetail | null;
  loading: boolean;
  error: string | null;
  live: LiveTurn | null;
  /** Trace rows of this page's turns, by turn id. Traces are never journaled, so past turns have none. */
  traces: Readonly<Record<string, ChatTraceRow[]>>;
  /** The reasoning of turns that ended in this page (by turn id), and how long it took: the journal keeps it only when the chat asks. */
  thoughts: Readonly<Record<string, { reasoning: string; ms?: number }>>;
  /** The alternatives at each turn of the current branch that has more than one: their ids, oldest first. */
  branches: Readonly<Record<string, string[]>>;
}

/** A decision on a request of a suspended turn. */
export type SuspendedDecision = { approve: true; input?: unknown } | { approve: false; reason: string };

/** A journaled turn shown live again (rejoined or resumed): its input and steers, the rest from its events. */
export function liveOf(record: TurnRecord, files: LiveFile[]): LiveTurn {
  return {
    key: record.id,
    turnId: record.id,
    input: record.input,
    ...(files.length > 0 && { files }),
    steers: record.steers.map((steer) => steer.input),
    text: "",
    rows: [],
    status: "running",
  };
}
