/**
 * The rows of a projected chat trace, as `projectChatTrace` in `june/chat` makes them and the chat HTTP
 * API sends them (`run-update` events). A structural copy of `ChatTraceRow`, so these components need
 * nothing from the Node library. They draw rows only: they hold no state of the run and take the rows of
 * each new snapshot as they are.
 */
export type TraceRowStatus = "running" | "error" | "pending" | "done";

export interface TraceModel {
  provider: string;
  modelId: string;
}

export interface TraceUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

interface TraceRowBase {
  /** Stable from one snapshot to the next. */
  id: string;
  /** Says the row's state: "Running research", "fetch failed". */
  title: string;
  status: TraceRowStatus;
  children: TraceRow[];
  /** The failure, as `Name: message`, bounded and redacted. */
  error?: string;
  /** The row ended because its run was canceled (its status is then `error`). */
  canceled?: boolean;
}

export interface TraceStepRow extends TraceRowBase {
  kind: "step";
  stepId: string;
  /** What the step wrote so far, bounded and redacted. */
  text?: string;
  model?: TraceModel;
  usage?: TraceUsage;
}

export interface TraceModelRow extends TraceRowBase {
  kind: "model";
  model: TraceModel;
  usage?: TraceUsage;
  finishReason?: string;
}

export interface TraceToolRow extends TraceRowBase {
  kind: "tool";
  toolName: string;
  toolCallId: string;
  /** Bounded, redacted summaries of the tool's input and output. */
  input: string;
  output?: string;
  approval?: { state: "pending" | "approved" | "denied"; reason?: string };
}

export interface TraceApprovalRow extends TraceRowBase {
  kind: "approval";
  /** The id to pass to approve or deny. */
  approvalId: string;
  toolName: string;
  input: string;
}

/** A row of a projected chat trace, discriminated on `kind`. */
export type TraceRow = TraceStepRow | TraceModelRow | TraceToolRow | TraceApprovalRow;
export type TraceRowKind = TraceRow["kind"];

/** What an approval row can do. Both settle once the server took (or refused) the decision. */
export interface TraceActions {
  approve(approvalId: string): Promise<void>;
  deny(approvalId: string, reason: string): Promise<void>;
}
