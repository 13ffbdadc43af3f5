import { RowError, RowFrame, tokens } from "./row-frame";
import { StepIcon } from "./icons";
import { TraceList } from "./trace-list";
import type { TraceActions, TraceStepRow } from "./types";

/** A step of the workflow, with its model calls and tool calls nested under it, then what it wrote. */
export function StepRow({ row, actions }: { row: TraceStepRow; actions?: TraceActions }) {
  return (
    <RowFrame
      row={row}
      icon={<StepIcon />}
      meta={row.status === "done" ? tokens(row.usage) : undefined}
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
