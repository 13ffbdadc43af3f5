/**
 * The rows these components draw are `ChatTraceRow`s (`june/chat`, each kind's shape from `june/stream`), as
 * `projectChatTrace` makes them and the chat HTTP API sends them (`run-update` events). The imports are type-only: nothing of the Node
 * library reaches a bundle. The components hold no state of the run and take each new snapshot's rows as
 * they are.
 */
export type {
  ChatTraceApprovalRow,
  ChatTraceAttempt,
  ChatTraceMessage,
  ChatTraceModelRow,
  ChatTraceRowKind,
  ChatTraceRowStatus,
  ChatTraceStepRow,
  ChatTraceToolRow,
} from "june/stream";
export type { ChatTraceRow } from "june/chat";

/** What an approval row can do. Both settle once the host took (or refused) the decision; a rejection is shown on the row. */
export interface TraceActions {
  /** Approves; with `input` (the row's Edit), the tool runs with it in place of the model's. */
  approve(approvalId: string, input?: unknown): Promise<void>;
  deny(approvalId: string, reason: string): Promise<void>;
  /** The reason sent when the user denies without typing one (default "Denied by the user"). */
  defaultDenyReason?: string;
}
