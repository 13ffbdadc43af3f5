import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { CasesFile, CasesFilter, TurnFeedback } from "../api/types";
import type { TurnRecord } from "../api/types";
import type { ChatController } from "./chat-controller";
import type { ChatSnapshot, LiveFile, SuspendedDecision } from "./chat-snapshot";

export type { LiveTurn } from "./chat-snapshot";

/** The open session as the chat pane reads it: the controller's snapshot and its actions. */
export interface ChatSession extends ChatSnapshot {
  send(input: string, files?: readonly File[]): Promise<void>;
  /** Sends `input` (and `files`) as soon as `sessionId` is open (a new session's first message). */
  queue(sessionId: string, input: string, files?: readonly File[]): void;
  /** A journaled turn's files, with the URLs the page shows them from. */
  filesOf(record: TurnRecord): LiveFile[];
  cancel(): Promise<void>;
  steer(input: string): Promise<void>;
  approve(approvalId: string, input?: unknown): Promise<void>;
  deny(approvalId: string, reason: string): Promise<void>;
  /** Answers a question the live turn asks. */
  answer(requestId: string, value: string): Promise<void>;
  decideSuspended(turnId: string, approvalId: string, decision: SuspendedDecision): Promise<void>;
  /** Ends a suspended (or interrupted, resumable) turn without running anything. */
  cancelSuspended(turnId: string): Promise<void>;
  regenerate(turnId: string): Promise<void>;
  edit(turnId: string, input: string): Promise<void>;
  checkout(turnId: string): Promise<void>;
  feedback(turnId: string, feedback: TurnFeedback): Promise<void>;
  exportCases(filter: CasesFilter): Promise<CasesFile>;
  dismissError(): void;
}

/**
 * Subscribes a component to a `ChatController` and keeps it on `sessionId`: the state and the work live in
 * the controller, this hook only renders from its snapshot (`useSyncExternalStore`).
 */
export function useChatSession(controller: ChatController, sessionId: string | null): ChatSession {
  useEffect(() => controller.open(sessionId), [controller, sessionId]);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      send: (input, files) => controller.send(input, files),
      queue: (session, input, files) => controller.queue(session, input, files),
      filesOf: (record) => controller.filesOf(record),
      cancel: () => controller.cancel(),
      steer: (input) => controller.steer(input),
      approve: (approvalId, input) => controller.approve(approvalId, input),
      deny: (approvalId, reason) => controller.deny(approvalId, reason),
      answer: (requestId, value) => controller.answer(requestId, value),
      decideSuspended: (turnId, approvalId, decision) => controller.decideSuspended(turnId, approvalId, decision),
      cancelSuspended: (turnId) => controller.cancelSuspended(turnId),
      regenerate: (turnId) => controller.regenerate(turnId),
      edit: (turnId, input) => controller.edit(turnId, input),
      checkout: (turnId) => controller.checkout(turnId),
      feedback: (turnId, feedback) => controller.feedback(turnId, feedback),
      exportCases: (filter) => controller.exportCases(filter),
      dismissError: () => controller.dismissError(),
    }),
    [controller, snapshot],
  );
}
