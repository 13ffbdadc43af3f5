import { IoDetail } from "./io-detail.js";
import { RowFrame } from "./row-frame.js";
import { ToolIcon } from "./icons.js";
import { TraceList } from "./trace-list.js";
import type { TraceActions, ChatTraceToolRow } from "./types.js";

/**
 * A tool call: its input and, once it ran, its output (or why it was denied), as the bounded, redacted
 * summaries the row carries, each a line that opens to the whole value laid out. While its approval row is
 * under it, the tool row has no badge: its title says it needs approval, and the approval row, with its
 * badge and its buttons, is where the wait is said (once, not on both rows).
 */
export function ToolRow({ row, actions }: { row: ChatTraceToolRow; actions?: TraceActions }) {
  const denied = row.approval?.state === "denied";
  const asking = row.children.some((child) => child.kind === "approval" && child.status === "pending");
  const error = row.error && !row.canceled ? row.error : undefined;
  return (
    <RowFrame
      row={row}
      icon={<ToolIcon />}
      badge={!asking}
      body={
        <dl className="jt-io">
          {row.input ? <IoDetail label="Input" value={row.input} /> : null}
          {row.output ? <IoDetail label="Output" value={row.output} /> : null}
          {denied && row.approval?.reason ? <IoDetail label="Reason" value={row.approval.reason} tone="error" /> : null}
          {error ? <IoDetail label="Error" value={error} tone="error" /> : null}
        </dl>
      }
      nested={<TraceList rows={row.children} actions={actions} nested="inset" />}
    />
  );
}
