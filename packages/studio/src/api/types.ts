import type { ApprovalView, ErrorInfo, TurnStreamEvent } from "june/stream";
import type { ChatTraceRow, SessionInfo, TurnFeedback, TurnMetadata, TurnRecord } from "june/chat";

/**
 * The shapes June's chat HTTP API sends, as the browser sees them (JSON). The turn stream's events are
 * `june/stream`'s own, and sessions, turns and a trace row `june/chat`'s: type-only imports, so nothing
 * of the Node library reaches the bundle (the stream's schema, which Studio runs on every event it reads,
 * is `june/stream`'s too, and imports nothing of Node). What only the HTTP API says is written here.
 */

export type { ChatTraceRow, SessionInfo, TurnFeedback, TurnMetadata, TurnRecord };

/** `suspended`: a durable turn let go of its process while it waits for approval; deciding resumes it. */
export type TurnStatus = TurnRecord["status"];

/** A failure as the server shows it: name and message, redacted. */
export type TurnError = ErrorInfo;

/** An approval request as the server sends it: the input is a bounded, redacted excerpt. */
export type ApprovalRequest = ApprovalView;

/** The turn's events as the server streams them, discriminated on `type`. */
export type StreamEvent = TurnStreamEvent;

/** Which eval cases an export holds: every completed turn, or those rated up (thumbs-up) or down. */
export type CasesFilter = "all" | "up" | "down";

/** An exported JSONL file of eval cases, ready to save. */
export interface CasesFile {
  blob: Blob;
  filename: string;
}

export interface SessionDetail {
  id: string;
  turns: TurnRecord[];
  /** The turn running in the session now, when the server runs one: rejoin it with `/turns/:id/events`. */
  runningTurnId?: string;
  /** The requests the session's suspended (or interrupted, resumable) turns wait on; absent when none. */
  pendingApprovals?: PendingApproval[];
  /** Those requests as trace rows, by turn id (the server's projection): drawn when the page has not the turn's trace. */
  pendingRows?: Record<string, ChatTraceRow[]>;
  /** The alternatives at each turn of the current branch that has any (turn id → their ids, oldest first); absent when none. */
  branches?: Record<string, string[]>;
  /** What the session spent, every branch and every turn however it ended; `usd` absent when unknown (the server's one fold). */
  cost?: { tokens: number; usd?: number };
}

/** A request a durable turn waits on while no process runs it, as the server shows it (the input excerpted and redacted). */
export type PendingApproval = ApprovalView & { turnId: string };

/** A schedule as `GET /schedules` lists it (times as ISO strings). */
export interface ScheduleView {
  id: string;
  kind: "cron" | "once";
  cron?: string;
  timezone?: string;
  runAt?: string;
  nextRunAt?: string;
  /** A session id, or "new": a new session per run. */
  session: string;
  owner?: string;
  input: string;
}

/** One version of an owner's working memory, as `GET /memory` lists it. */
export interface MemoryVersionView {
  version: number;
  text: string;
  /** ISO time. */
  at: string;
  /** The session and turn that wrote it; absent when an app set it. */
  sessionId?: string;
  turnId?: string;
}

/** `GET /memory`: the latest version (null when none is kept) and every version kept, oldest first. */
export interface MemoryView {
  memory: MemoryVersionView | null;
  versions: MemoryVersionView[];
}

/** What a turn's context took from memory: the working memory's version, the earlier turns recalled. */
export type TurnMemoryProvenance = NonNullable<NonNullable<TurnRecord["context"]>["memory"]>;
