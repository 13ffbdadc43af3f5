import { RowError, RowFrame, tokens } from "./row-frame.js";
import { StepIcon } from "./icons.js";
import { TraceList } from "./trace-list.js";
import type { TraceActions, ChatTraceStepRow } from "./types.js";

/** A step of the workflow, with its model calls and tool calls nested under it, then what it wrote. */
export function StepRow({ row, actions }: { row: ChatTraceStepRow; actions?: TraceActions }) {
  return (
    <RowFrame
      row={row}
      icon={<StepIcon />}
      meta={row.status === "done" ? tokens(row.usage, row.cost) : undefined}
      body={row.error && !row.canceled ? <RowError row={row} /> : undefined}
      nested={<TraceList rows={row.children} actions={actions} nested="guide" />}
      after={
        row.text ? (
          <details className="jt-text">
            <summary>What it wrote</summary>
            <p>{row.text}</p>
          </details>
        ) : undefined
      }
    />
  );
}
