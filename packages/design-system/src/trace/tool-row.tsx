import { RowFrame } from "./row-frame.js";
import { ToolIcon } from "./icons.js";
import { TraceList } from "./trace-list.js";
import type { TraceActions, ChatTraceToolRow } from "./types.js";

/** A tool call: its input and, once it ran, its output, as the bounded summaries the row carries. */
export function ToolRow({ row, actions }: { row: ChatTraceToolRow; actions?: TraceActions }) {
  const denied = row.approval?.state === "denied";
  const error = row.error && !row.canceled ? row.error : undefined;
  return (
    <RowFrame
      row={row}
      icon={<ToolIcon />}
      body={
        <dl className="jt-io">
          {row.input ? <IoLine label="Input" value={row.input} /> : null}
          {row.output ? <IoLine label="Output" value={row.output} /> : null}
          {denied && row.approval?.reason ? <IoLine label="Denied" value={row.approval.reason} tone="error" /> : null}
          {error ? <IoLine label="Error" value={error} tone="error" /> : null}
        </dl>
      }
      nested={<TraceList rows={row.children} actions={actions} nested="inset" />}
    />
  );
}

function IoLine({ label, value, tone }: { label: string; value: string; tone?: "error" }) {
  return (
    <div className={tone ? `jt-io__line jt-io__line--${tone}` : "jt-io__line"}>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
    </div>
  );
}
