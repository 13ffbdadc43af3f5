export { TraceList, TraceRowView, type TraceListProps } from "./trace-list";
export { StepRow } from "./step-row";
export { ModelRow } from "./model-row";
export { ToolRow } from "./tool-row";
export { ApprovalRow } from "./approval-row";
export { StatusBadge } from "./status-badge";
export type {
  TraceActions,
  TraceApprovalRow,
  TraceModel,
  TraceModelRow,
  TraceRow,
  TraceRowKind,
  TraceRowStatus,
  TraceStepRow,
  TraceToolRow,
  TraceUsage,
} from "./types";
export { describeTrace, summarizeTrace, type TraceSummary } from "./trace-summary";
