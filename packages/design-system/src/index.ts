/**
 * `june-design-system`: React components that draw `june/chat`'s trace rows (`ChatTraceRow`, from
 * `projectChatTrace` or a `run-update` event of the chat HTTP API). Import the styles once:
 * `import "june-design-system/styles.css"`.
 */
export { TraceList, TraceRowView, type TraceListProps, type TraceRowViewProps } from "./trace/trace-list.js";
export { StepRow } from "./trace/step-row.js";
export { ModelRow } from "./trace/model-row.js";
export { ToolRow } from "./trace/tool-row.js";
export { ApprovalRow } from "./trace/approval-row.js";
export { StatusBadge } from "./trace/status-badge.js";
export type { TraceHalt } from "./trace/halted.js";
export { RowDuration, formatDuration } from "./trace/duration.js";
export { IoDetail, prettyValue, type IoDetailProps } from "./trace/io-detail.js";
export { RowFrame, RowError, formatUsd, type RowFrameProps } from "./trace/row-frame.js";
export { ApprovalIcon, ModelIcon, StepIcon, ToolIcon } from "./trace/icons.js";
export { describeTrace, summarizeTrace, type TraceSummary } from "./trace/trace-summary.js";
export { describeModelError, describeModelErrorCause } from "./trace/error-words.js";
export type {
  ChatTraceApprovalRow,
  ChatTraceAttempt,
  ChatTraceMessage,
  ChatTraceModelRow,
  ChatTraceRow,
  ChatTraceRowKind,
  ChatTraceRowStatus,
  ChatTraceStepRow,
  ChatTraceToolRow,
  TraceActions,
} from "./trace/types.js";
