import type { ChatTraceRow } from "june-design-system";

/**
 * The shapes June's chat HTTP API sends, as the browser sees them (JSON). They mirror `june/chat`'s
 * `SessionInfo` and `TurnRecord`, so the web app never pulls the Node library into the bundle; trace rows
 * are `june/chat`'s own `ChatTraceRow` (a type-only import, through `june-design-system`).
 */

export type { ChatTraceRow };

/** `suspended`: a durable turn let go of its process while it waits for approval; deciding resumes it. */
export type TurnStatus = "running" | "completed" | "failed" | "canceled" | "interrupted" | "suspended";

export interface SessionInfo {
  id: string;
  createdAt: string;
  updatedAt: string;
  title?: string;
  turnCount: number;
}

export interface TurnError {
  name: string;
  message: string;
}

export interface TurnMetadata {
  responder?: { kind: string; id?: string; version?: string };
  model?: { provider: string; modelId: string };
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  finishReason?: string;
}

/** Feedback on a completed turn: `score` 1 (up), -1 (down) or from 0 to 1; the latest supersedes the earlier. */
export interface TurnFeedback {
  score: number;
  comment?: string;
  tags?: string[];
}

/** Which eval cases an export holds: every completed turn, or those rated up (thumbs-up) or down. */
export type CasesFilter = "all" | "up" | "down";

/** An exported JSONL file of eval cases, ready to save. */
export interface CasesFile {
  blob: Blob;
  filename: string;
}

export interface TurnRecord {
  id: string;
  input: string;
  steers: { input: string; atChar: number }[];
  status: TurnStatus;
  text?: string;
  error?: TurnError;
  metadata?: TurnMetadata;
  /** The latest feedback on the turn. */
  feedback?: TurnFeedback;
  /** The turn this one follows; turns sharing it are alternatives (branches). */
  parentTurnId?: string;
  /** A durable turn that can be resumed from its checkpoint (an interrupted one; a suspended one always can). */
  resumable?: boolean;
  startedAt: string;
  endedAt?: string;
}

export interface SessionDetail {
  id: string;
  turns: TurnRecord[];
  /** The turn running in the session now, when the server runs one: rejoin it with `/turns/:id/events`. */
  runningTurnId?: string;
  /** The requests the session's suspended (or interrupted, resumable) turns wait on; absent when none. */
  pendingApprovals?: PendingApproval[];
  /** The alternatives at each turn of the current branch that has any (turn id → their ids, oldest first); absent when none. */
  branches?: Record<string, string[]>;
}

/** A request a durable turn waits on while no process runs it: the input excerpted and redacted. */
export interface PendingApproval {
  turnId: string;
  id: string;
  toolName: string;
  toolCallId: string;
  input: string;
  retry?: boolean;
}

/** An approval request as the server sends it: the input is a bounded, redacted excerpt. */
export interface ApprovalRequest {
  id: string;
  stepId: string;
  toolName: string;
  toolCallId: string;
  input: string;
}

/** The turn's events as the server streams them, discriminated on `type`. */
export type StreamEvent =
  | { type: "turn-start"; turnId: string; sessionId?: string }
  | { type: "text-delta"; text: string }
  | { type: "run-update"; rows: ChatTraceRow[] }
  | { type: "approval-request"; request: ApprovalRequest }
  | {
      type: "turn-end";
      status: Exclude<TurnStatus, "running" | "interrupted">;
      text?: string;
      error?: TurnError;
      metadata?: TurnMetadata;
    };
